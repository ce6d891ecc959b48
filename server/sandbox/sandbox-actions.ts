import { randomInt } from "node:crypto";
import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { revokeApplicationAccess } from "../auth/oauth/grants";
import type { Db } from "../db/client";
import { athletes, oauthApplications, resultCrew, results, tracks, trainings, trainingSets } from "../db/schema";
import { requestDeviceFetch } from "../devices/device-jobs";
import { AppError, notFound } from "../errors";
import { requestSessionExport } from "../exports/request-session-export";
import { correctResult } from "../results/correct-result";
import { deleteResult } from "../results/delete-result";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { getKeyring } from "../config/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../svc/simulator/training";
import { createTrainingFromUpload } from "../trainings/create-training";
import { correctTrainingSets } from "../trainings/set-corrections";
import { vesselIdOf } from "../demo/vessel-ids";
import { getSandboxPerson } from "./sandbox";

/**
 * What an owner can do to their sandbox person from the portal
 * (docs/sandbox.md "Actions"). Each is a real action through the same
 * domain function the web app or the APIs call, on the sandbox person's
 * account, so whatever that function emits (jobs, events, webhooks)
 * happens exactly as for a real person. Nothing here touches any other
 * account.
 */
export const SANDBOX_ACTIONS = [
  "upload_session",
  "correct_session",
  "delete_session",
  "upload_training",
  "upload_failing_training",
  "correct_training",
  "request_export",
  "request_failing_export",
  "fetch_device_file",
  "revoke_authorization",
] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];
export const ZSandboxAction = z.enum(SANDBOX_ACTIONS);

/** The person's newest session (by start), or a 409 telling the owner to upload one. */
async function newestSessionId(db: Db, personId: number): Promise<number> {
  const [row] = await db
    .select({ id: results.id })
    .from(results)
    .where(eq(results.ownerUserId, personId))
    .orderBy(desc(results.startAt), desc(results.id))
    .limit(1);
  if (!row) throw new AppError("conflict", "The sandbox person has no sessions: upload one or reset the sandbox");
  return row.id;
}

/** Upload of a new simulated K1 500 m dated now: the upload path of the web app, processed in the request. */
export async function uploadSimulatedSession(db: Db, ownerUserId: number, applicationId: number): Promise<{ sessionId: number }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const keyring = getKeyring();
  const simulation = simulateSession({ vessel: "K1", distanceM: 500, seed: randomInt(1, 2 ** 31 - 1), pace: "race" });
  const content = {
    ...simulation.content,
    header: { ...simulation.content.header, startUnixMs: Date.now() - 10 * 60_000, keyId: Math.min(...keyring.keys()) },
  };
  const [track] = await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.ownerUserId, person.id)).orderBy(asc(tracks.id)).limit(1);
  // The person's own athlete record sits in seat 1, as in the season.
  const [athlete] = await db
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(eq(athletes.userId, person.id), eq(athletes.ownerUserId, person.id)))
    .limit(1);
  if (!track || !athlete) throw new AppError("conflict", "The sandbox person has no course or athlete left: reset the sandbox");
  const uploaded = await uploadResult(db, {
    user: person,
    createdVia: "web",
    keyPairId: null,
    // As if the application's own key pair had sent it: a session-surface application sees it too.
    applicationId,
    file: { filename: `sandbox-upload-${simulation.truth.seed}.svc`, bytes: Buffer.from(encodeSvc(content, keyring)) },
    metadata: JSON.stringify({
      distance: 500,
      vessel_id: await vesselIdOf(db, "K1"),
      track_id: track.id,
      category_id: 1,
      pace_id: 1,
      athletes: [athlete.id],
      description: "Uploaded from the sandbox",
    }),
  });
  return { sessionId: uploaded.id };
}

/** A correction of the newest session (its description and importance), as the session page's form sends it. */
export async function correctNewestSession(db: Db, ownerUserId: number, applicationId: number): Promise<{ sessionId: number }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const sessionId = await newestSessionId(db, person.id);
  const [session] = await db.select().from(results).where(eq(results.id, sessionId));
  const crew = await db.select().from(resultCrew).where(eq(resultCrew.resultId, sessionId)).orderBy(asc(resultCrew.seat));
  await correctResult(db, person, sessionId, {
    vesselId: session.vesselId,
    trackId: session.trackId,
    categoryId: session.categoryId,
    paceId: session.paceId,
    crew: crew.map((seat) =>
      seat.athleteId !== null
        ? { athleteId: seat.athleteId }
        : { name: seat.externalName!, surname: seat.externalSurname ?? "", weightKg: seat.externalWeightKg },
    ),
    competition: session.competition,
    description: `Corrected ${new Date().toISOString().slice(0, 16)}`,
    important: !session.important,
  });
  return { sessionId };
}

export async function deleteNewestSession(db: Db, ownerUserId: number, applicationId: number): Promise<{ sessionId: number }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const sessionId = await newestSessionId(db, person.id);
  await deleteResult(db, person, sessionId);
  return { sessionId };
}

/**
 * A training upload; the job runner processes it as any upload. The failing
 * one is a real practice cut short in the middle of its data, which the
 * processing refuses as a damaged file (training.failed, code invalid_file).
 */
export async function uploadSandboxTraining(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  outcome: "ready" | "failed",
): Promise<{ trainingId: number }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const keyring = getKeyring();
  const seed = randomInt(1, 2 ** 31 - 1);
  const simulation = simulateTraining({ vessel: "K1", steps: parseTrainingSpec("3x250m/60s")!, seed, warmupS: 60, cooldownS: 30 });
  const content = {
    ...simulation.content,
    header: { ...simulation.content.header, startUnixMs: Date.now() - 30 * 60_000, keyId: Math.min(...keyring.keys()) },
  };
  const bytes = Buffer.from(encodeSvc(content, keyring));
  const created = await createTrainingFromUpload(db, {
    user: person,
    createdVia: "web",
    applicationId,
    file: {
      filename: `sandbox-training-${seed}.svc`,
      bytes: outcome === "ready" ? bytes : bytes.subarray(0, Math.floor(bytes.length / 2)),
    },
    vesselId: await vesselIdOf(db, "K1"),
    title: outcome === "ready" ? "3 × 250 m from the sandbox" : "A damaged file from the sandbox",
  });
  return { trainingId: created.id };
}

/**
 * A set correction of the newest processed training, as the training page
 * sends it: its first work set split in the middle (training.updated).
 */
export async function correctNewestTraining(db: Db, ownerUserId: number, applicationId: number): Promise<{ trainingId: number }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const [training] = await db
    .select({ id: trainings.id })
    .from(trainings)
    .where(and(eq(trainings.ownerUserId, person.id), eq(trainings.status, "ready")))
    .orderBy(desc(trainings.startAt), desc(trainings.id))
    .limit(1);
  if (!training) throw new AppError("conflict", "The sandbox person has no processed trainings: upload one or reset the sandbox");
  const [set] = await db
    .select({ id: trainingSets.id, durationMs: trainingSets.durationMs })
    .from(trainingSets)
    .where(and(eq(trainingSets.trainingId, training.id), eq(trainingSets.kind, "work")))
    .orderBy(asc(trainingSets.position))
    .limit(1);
  if (!set) throw new AppError("conflict", "The newest training has no work set to correct");
  await correctTrainingSets(db, person.id, training.id, { op: "split", set_id: set.id, at_s: Math.round(set.durationMs / 2) / 1000 });
  return { trainingId: training.id };
}

/**
 * An export of the newest session, requested as the application would (its
 * surface's boundary and mode). The failing one is requested and then its
 * session deleted before the job can build it: the job fails with
 * "Session not found" (export.failed), and the deletion is a session.deleted.
 */
export async function requestSandboxExport(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  outcome: "completed" | "failed",
): Promise<{ exportId: string; sessionId: number }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const [app] = await db
    .select({ surface: oauthApplications.surface })
    .from(oauthApplications)
    .where(eq(oauthApplications.id, applicationId));
  const sessionId = await newestSessionId(db, person.id);
  // Deleted in the same transaction that queues the job: the job can only ever see it gone.
  const { job } = await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const requested = await requestSessionExport(txDb, {
      audience: { subjectId: person.id, surface: app.surface, applicationId },
      applicationId,
      sessionId,
      request: { format: "json", athlete: 1, splits: 4, lang: "en" },
      mode: app.surface === "partner" ? "privacy-safe" : "full",
      healthAllowed: false,
      idempotency: null,
    });
    if (outcome === "failed") await deleteResult(txDb, person, sessionId);
    return requested;
  });
  return { exportId: job.publicId, sessionId };
}

/** A device file fetch (device_job.completed) of the newest stored original. */
export async function fetchSandboxDeviceFile(db: Db, ownerUserId: number, applicationId: number): Promise<{ deviceJobId: string }> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  const [file] = await db
    .select({ deviceId: results.deviceId, filename: results.originalFilename })
    .from(results)
    .where(and(eq(results.ownerUserId, person.id), isNotNull(results.originalBlobId), isNotNull(results.deviceId)))
    .orderBy(desc(results.createdAt), desc(results.id))
    .limit(1);
  if (!file?.deviceId || !file.filename)
    throw new AppError("conflict", "The sandbox person has no stored device files: upload a session or reset the sandbox");
  const job = await requestDeviceFetch(db, {
    requester: { subjectUserId: person.id, applicationId },
    deviceId: file.deviceId,
    filename: file.filename,
  });
  return { deviceJobId: job.publicId };
}

/** The application's authorization by the sandbox person, revoked as the person would from their connected apps. */
export async function revokeSandboxAuthorization(db: Db, ownerUserId: number, applicationId: number): Promise<void> {
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  try {
    await revokeApplicationAccess(db, person.id, applicationId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found")
      throw new AppError("conflict", "The application holds no authorization from the sandbox person: authorize it first");
    throw error;
  }
}

/** One action from the portal; the answer is a sentence for the owner. */
export async function runSandboxAction(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  action: SandboxAction,
): Promise<{ message: string }> {
  switch (action) {
    case "upload_session":
      return { message: `Uploaded session ${(await uploadSimulatedSession(db, ownerUserId, applicationId)).sessionId} (session.created).` };
    case "correct_session":
      return { message: `Corrected session ${(await correctNewestSession(db, ownerUserId, applicationId)).sessionId} (session.updated).` };
    case "delete_session":
      return { message: `Deleted session ${(await deleteNewestSession(db, ownerUserId, applicationId)).sessionId} (session.deleted).` };
    case "upload_training":
      return {
        message: `Uploaded training ${(await uploadSandboxTraining(db, ownerUserId, applicationId, "ready")).trainingId}; it is processed in the background (training.ready).`,
      };
    case "upload_failing_training":
      return {
        message: `Uploaded damaged training ${(await uploadSandboxTraining(db, ownerUserId, applicationId, "failed")).trainingId}; its processing fails (training.failed).`,
      };
    case "correct_training":
      return {
        message: `Corrected the sets of training ${(await correctNewestTraining(db, ownerUserId, applicationId)).trainingId} (training.updated).`,
      };
    case "request_export":
      return {
        message: `Requested export ${(await requestSandboxExport(db, ownerUserId, applicationId, "completed")).exportId} (export.completed).`,
      };
    case "request_failing_export": {
      const { exportId, sessionId } = await requestSandboxExport(db, ownerUserId, applicationId, "failed");
      return {
        message: `Requested export ${exportId} and deleted its session ${sessionId}: the export fails (export.failed, session.deleted).`,
      };
    }
    case "fetch_device_file":
      return {
        message: `Requested device file fetch ${(await fetchSandboxDeviceFile(db, ownerUserId, applicationId)).deviceJobId} (device_job.completed).`,
      };
    case "revoke_authorization":
      await revokeSandboxAuthorization(db, ownerUserId, applicationId);
      return { message: "Revoked the application's authorization by the sandbox person (authorization.revoked)." };
    default:
      throw notFound("Action");
  }
}
