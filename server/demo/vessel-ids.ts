import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { vessels } from "../db/schema";
import type { VesselType } from "../svc/types";

/** The catalogue id of a boat type, for the demo seed and the sandbox, which make their files by type. */
export async function vesselIdOf(db: Db, type: VesselType): Promise<number> {
  const [row] = await db.select({ id: vessels.id }).from(vessels).where(eq(vessels.type, type));
  if (!row) throw new Error(`no vessel ${type}`);
  return row.id;
}
