import type { Db } from "../db/client";
import { setHeartRateShare } from "../health/heart-rate-share";

/** The demo athlete shares their heart rate with their coach (docs/load.md; docs/access.md "Heart-rate sharing"). */
export async function seedDemoLoad(db: Db, athleteUserId: number): Promise<void> {
  await setHeartRateShare(db, athleteUserId, true);
}
