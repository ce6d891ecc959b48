import type { Db } from "../db/client";
import { notFound } from "../errors";
import type { IdempotencyClaim } from "../idempotency/idempotency";
import { getCrewSeenBy, getReadableSession } from "../sessions/read-session";
import type { SessionAudience } from "../sessions/session-boundary";
import type { ExportFormat, ExportOptions } from "./builders";
import { requestExport, type ExportJob } from "./export-jobs";

/** What a client asks for (data-api.md "ExportRequest"), defaults applied. */
export interface SessionExportRequest {
  format: ExportFormat;
  /** Seat 1 to 4. */
  athlete: number;
  splits: number;
  lang: "en" | "es";
}

/**
 * Queues an export of one session for a Data API token or a web user:
 * the session must be readable within the audience's boundary, and the seat
 * picked by `athlete` must exist and be one the subject may see (their own
 * seat, an athlete they manage or coach on the data surface, or any seat of
 * a session they own) — otherwise the same 404 as an absent session.
 */
export async function requestSessionExport(
  db: Db,
  input: {
    audience: SessionAudience;
    /** Null for the web app. */
    applicationId: number | null;
    sessionId: number;
    request: SessionExportRequest;
    /** The partner surface gets the privacy-safe mode (docs/exports.md). */
    mode: ExportOptions["mode"];
    healthAllowed: boolean;
    idempotency: IdempotencyClaim | null;
  },
): Promise<{ job: ExportJob; replayed: boolean }> {
  const session = await getReadableSession(db, input.audience, input.sessionId);
  const crew = await getCrewSeenBy(db, input.audience, session.id);
  const seat = crew.find((s) => s.seat === input.request.athlete);
  const ownsSession = session.ownerUserId === input.audience.subjectId && input.audience.surface !== "partner";
  if (!seat || !(seat.athlete || seat.isSubject || ownsSession)) throw notFound("Seat");
  return requestExport(db, {
    requester: { subjectUserId: input.audience.subjectId, applicationId: input.applicationId },
    source: { kind: "session", sessionId: session.id },
    options: { ...input.request, athlete: input.request.athlete as ExportOptions["athlete"], mode: input.mode, healthAllowed: input.healthAllowed },
    idempotency: input.idempotency,
  });
}
