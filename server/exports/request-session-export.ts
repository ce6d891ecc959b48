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
 * seat, an athlete they manage or coach: listExportableSeats;
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
  const seats = await seatsExportableOf(db, input.audience, session);
  if (!seats.some((s) => s.seat === input.request.athlete)) throw notFound("Seat");
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

/** A seat of a session's crew the person may export, with its athlete's name. */
export interface ExportableSeat {
  seat: number;
  name: string;
  /** The person's own seat. */
  own: boolean;
}

/**
 * The seats of a session the person may export: a seat holding an athlete
 * record they may see (their own, one they manage or coach). A seat whose
 * paddler they may not see, or a paddler typed in by hand (no identity to
 * export), is not theirs to export, even in a session they own: the builder
 * refuses those (server/exports/export-source.ts). The export form
 * offers exactly these and requestSessionExport accepts exactly these, so a
 * seat offered is never "not found" (docs/web-app.md "A new coach's defects").
 */
export async function listExportableSeats(db: Db, audience: SessionAudience, sessionId: number): Promise<ExportableSeat[]> {
  return seatsExportableOf(db, audience, await getReadableSession(db, audience, sessionId));
}

async function seatsExportableOf(db: Db, audience: SessionAudience, session: { id: number }): Promise<ExportableSeat[]> {
  // The partner surface may export the seats the person could export on the web (the data
  // surface's view), in the privacy-safe mode that hides every identity but the person's own.
  const seatsView = audience.surface === "partner" ? { ...audience, surface: "data" as const } : audience;
  const crew = await getCrewSeenBy(db, seatsView, session.id);
  return crew.flatMap((seat) => (seat.athlete ? [{ seat: seat.seat, name: seat.athlete.name, own: seat.isSubject }] : []));
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
