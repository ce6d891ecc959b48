import type { Db } from "../db/client";
import { AppError, notFound } from "../errors";
import { getReadableTraining } from "../trainings/training-reads";
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
 * seat, an athlete they manage or coach, or any seat of a session they own;
 * on the partner surface the same seats, built privacy-safe) — otherwise the
 * same 404 as an absent session.
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
  // The partner surface may export the seats the person could export on the web (the data
  // surface's view), in the privacy-safe mode that hides every identity but the person's own.
  const seatsView = input.audience.surface === "partner" ? { ...input.audience, surface: "data" as const } : input.audience;
  const crew = await getCrewSeenBy(db, seatsView, session.id);
  const seat = crew.find((s) => s.seat === input.request.athlete);
  const ownsSession = session.ownerUserId === input.audience.subjectId;
  if (!seat || !(seat.athlete || seat.isSubject || ownsSession)) throw notFound("Seat");
  return requestExport(db, {
    requester: { subjectUserId: input.audience.subjectId, applicationId: input.applicationId },
    source: { kind: "session", sessionId: session.id },
    options: {
      ...input.request,
      athlete: input.request.athlete as ExportOptions["athlete"],
      mode: input.mode,
      healthAllowed: input.healthAllowed,
    },
    idempotency: input.idempotency,
  });
}

/**
 * Queues an export of one training: readable within the audience's boundary
 * (owned; on the session surface created by the application), ready (else
 * 409 conflict, nothing queued), and seat 1 (a training has one paddler;
 * another seat is the same 404 as an absent training).
 */
export async function requestTrainingExport(
  db: Db,
  input: {
    audience: SessionAudience;
    applicationId: number | null;
    trainingId: number;
    request: SessionExportRequest;
    mode: ExportOptions["mode"];
    healthAllowed: boolean;
    idempotency: IdempotencyClaim | null;
  },
): Promise<{ job: ExportJob; replayed: boolean }> {
  const training = await getReadableTraining(db, input.audience, input.trainingId);
  if (input.request.athlete !== 1) throw notFound("Seat");
  if (training.status !== "ready")
    throw new AppError(
      "conflict",
      `The training has no sets yet: ${training.status === "failed" ? "its processing failed" : `it is ${training.status}`}`,
    );
  return requestExport(db, {
    requester: { subjectUserId: input.audience.subjectId, applicationId: input.applicationId },
    source: { kind: "training", trainingId: training.id },
    options: { ...input.request, athlete: 1, mode: input.mode, healthAllowed: input.healthAllowed },
    idempotency: input.idempotency,
  });
}
