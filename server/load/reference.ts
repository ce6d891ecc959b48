import { and, eq, gte, lte, max } from "drizzle-orm";
import type { Db } from "../db/client";
import { athleteLoads, vessels } from "../db/schema";

/** How far back an effort's reference looks; store-load.ts looks as far forward when an effort changes. */
export const REFERENCE_WINDOW_DAYS = 90;

/**
 * The athlete's reference speed for a boat class (docs/load.md "Reference
 * speed"): the average speed of their best 500 m over the 90 days up to
 * `asOf` (inclusive), from their sessions and training work sets of at least
 * 500 m. Each session's and training's fastest 500 m is stored with its load
 * (athlete_loads.best500_speed_m_s), so this is one indexed read. Null when
 * there is none.
 */
export async function referenceSpeedMS(db: Db, opts: { athleteId: number; boatClass: string; asOf: Date }): Promise<number | null> {
  const since = new Date(opts.asOf.getTime() - REFERENCE_WINDOW_DAYS * 86_400_000);
  const [row] = await db
    .select({ best: max(athleteLoads.best500SpeedMS) })
    .from(athleteLoads)
    .innerJoin(vessels, eq(vessels.id, athleteLoads.vesselId))
    .where(
      and(
        eq(athleteLoads.athleteId, opts.athleteId),
        eq(vessels.type, opts.boatClass),
        gte(athleteLoads.startAt, since),
        lte(athleteLoads.startAt, opts.asOf),
      ),
    );
  return row?.best ?? null;
}
