import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { trainings } from "../db/schema";
import { rowsOf } from "../sessions/session-log";
import { trainingVisible } from "../trainings/training-view";

/**
 * What is waiting on the home (docs/web-app.md "Home" and "Squad views"): the person's own uploads whose
 * processing failed (the owner corrects or deletes them), uploads still being processed (their own and
 * their athletes'), trainings whose corrected sets want a look after reprocessing (flagged), and web
 * exports still queued or building. Each list is short (at most 10) and links where to act.
 */
export interface Waiting {
  failedSessions: { id: number; date: string; label: string }[];
  failedTrainings: { id: number; date: string | null; label: string }[];
  /** Sessions and trainings queued or being processed, newest upload first. */
  processing: { kind: "session" | "training"; id: number; label: string; uploadedAt: string }[];
  /** Trainings whose corrected sets reprocessing could not re-apply (docs/trainings.md "Corrected sets"), that the person may correct. */
  flaggedTrainings: { id: number; date: string | null; label: string }[];
  pendingExports: { publicId: string; format: string; state: string; createdAt: string }[];
}

const LIMIT = 10;

export async function readWaiting(db: Db, userId: number): Promise<Waiting> {
  const [failedSessions, failedTrainings, processing, flaggedTrainings, pendingExports] = await Promise.all([
    db.execute(sql`
      select r.id, r.date::text as date, v.type || ' ' || r.distance_m || ' m' || case when r.description <> '' then ' · ' || r.description else '' end as label
      from results r join vessels v on v.id = r.vessel_id where r.owner_user_id = ${userId} and r.status = 'failed' order by r.date desc, r.id desc limit ${LIMIT}`),
    db.execute(
      sql`select t.id, t.date::text as date, t.title as label from trainings t where t.owner_user_id = ${userId} and t.status = 'failed' order by t.created_at desc limit ${LIMIT}`,
    ),
    db.execute(sql`
      (select 'session' as kind, r.id, v.type || ' ' || r.distance_m || ' m' as label, r.created_at as at
       from results r join vessels v on v.id = r.vessel_id
       where r.status in ('pending', 'processing')
         and exists (select 1 from session_access w_sa where w_sa.user_id = ${userId} and w_sa.result_id = r.id)
       order by r.created_at desc limit ${LIMIT})
      union all
      (select 'training', ${trainings.id}, coalesce(nullif(${trainings.title}, ''), 'Training ' || ${trainings.id}), ${trainings.createdAt}
       from ${trainings} where ${trainings.status} in ('queued', 'processing') and ${trainingVisible(userId)}
       order by ${trainings.createdAt} desc limit ${LIMIT})
      order by at desc limit ${LIMIT}`),
    db.execute(sql`
      select ${trainings.id} as id, ${trainings.date}::text as date, coalesce(nullif(${trainings.title}, ''), 'Training ' || ${trainings.id}) as label
      from ${trainings} left join athletes w_a on w_a.id = ${trainings.athleteId}
      where ${trainings.needsReview} and (${trainings.ownerUserId} = ${userId} or w_a.user_id = ${userId})
      order by ${trainings.date} desc nulls first, ${trainings.id} desc limit ${LIMIT}`),
    db.execute(sql`
      select e.public_id as "publicId", e.format, e.state, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as "createdAt"
      from export_jobs e where e.subject_user_id = ${userId} and e.application_id is null and e.state in ('queued', 'running') order by e.created_at desc limit ${LIMIT}`),
  ]);
  return {
    failedSessions: rowsOf<Waiting["failedSessions"][number]>(failedSessions).map((r) => ({ ...r, id: Number(r.id) })),
    failedTrainings: rowsOf<Waiting["failedTrainings"][number]>(failedTrainings).map((r) => ({ ...r, id: Number(r.id) })),
    processing: rowsOf<{ kind: "session" | "training"; id: number; label: string; at: Date | string }>(processing).map((r) => ({
      kind: r.kind,
      id: Number(r.id),
      label: r.label,
      uploadedAt: new Date(r.at).toISOString().slice(0, 16).replace("T", " "),
    })),
    flaggedTrainings: rowsOf<Waiting["flaggedTrainings"][number]>(flaggedTrainings).map((r) => ({ ...r, id: Number(r.id) })),
    pendingExports: rowsOf<Waiting["pendingExports"][number]>(pendingExports),
  };
}

/** How many things are waiting, for the heading's count. */
export const waitingCount = (w: Waiting) =>
  w.failedSessions.length + w.failedTrainings.length + w.processing.length + w.flaggedTrainings.length + w.pendingExports.length;
