import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rowsOf } from "../sessions/session-log";

/**
 * The web exports page (docs/web-app.md "Exports"): the person's own web
 * export jobs, newest first, with what each exports and its state. A
 * succeeded job past its expiry reads as expired, as the download does
 * (export-jobs.ts withLazyExpiry). Jobs made by OAuth applications are the
 * application's, not listed here.
 */
export interface ExportListItem {
  publicId: string;
  format: string;
  state: "queued" | "running" | "succeeded" | "failed" | "expired";
  sourceKind: "session" | "training";
  sourceId: number;
  /** What the file is of, e.g. "2026-11-20 · K4 500 m"; null when the source is gone. */
  sourceLabel: string | null;
  createdAt: string;
  expiresAt: string | null;
  byteSize: number | null;
  error: string | null;
}

export const EXPORT_LIST_LIMIT = 100;

export async function listWebExports(db: Db, userId: number, now = new Date()): Promise<ExportListItem[]> {
  const rows = rowsOf<
    Omit<ExportListItem, "sourceId" | "byteSize"> & { sourceId: number; byteSize: number | string | null; expired: boolean }
  >(
    await db.execute(sql`
      select e.public_id as "publicId", e.format, e.state, e.source_kind as "sourceKind", e.source_id as "sourceId",
        case e.source_kind
          when 'session' then (select r.date::text || ' · ' || v.type || ' ' || r.distance_m || ' m' from results r join vessels v on v.id = r.vessel_id where r.id = e.source_id)
          when 'training' then (select coalesce(t.date::text || ' · ', '') || coalesce(nullif(t.title, ''), 'Training') from trainings t where t.id = e.source_id)
        end as "sourceLabel",
        to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as "createdAt",
        to_char(e.expires_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as "expiresAt",
        e.byte_size as "byteSize", e.error,
        (e.state = 'succeeded' and e.expires_at is not null and e.expires_at <= ${now.toISOString()}::timestamptz) as expired
      from export_jobs e
      where e.subject_user_id = ${userId} and e.application_id is null
      order by e.created_at desc, e.id desc limit ${EXPORT_LIST_LIMIT}`),
  );
  return rows.map(({ expired, ...r }) => ({
    ...r,
    state: expired ? "expired" : r.state,
    sourceId: Number(r.sourceId),
    byteSize: r.byteSize === null ? null : Number(r.byteSize),
  }));
}
