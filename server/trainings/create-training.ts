import { createHash } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { athleteAccessible, trackAccessible } from "../access/access";
import { commitBlob, stageBlob, type StagedContent } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { athletes, tracks, trainingCrew, trainings, vessels, workoutTemplates } from "../db/schema";
import { AppError } from "../errors";
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters, INT4_MAX } from "../contract/values";
import { sendEvent } from "../events/send-event";
import { SENSITIVITY } from "../svc/process/sets";
import type { SessionUser } from "../users/users";
import { inspectTemplate } from "../workouts/template";
import { isUniqueViolation } from "../db/pg-errors";

/** Where a training's original file lives in the blob store. */
export const trainingBlobPrefix = (trainingId: number) => `trainings/${trainingId}/`;
export const trainingOriginalKey = (trainingId: number) => `${trainingBlobPrefix(trainingId)}original.svc`;

export const TRAINING_TITLE_MAX = 128;
export const TRAINING_NOTES_MAX = 1000;

export interface TrainingUploadInput {
  user: SessionUser;
  createdVia: "web" | "api" | "demo";
  keyPairId?: number | null;
  /** Application that created it (Data API "session" surface). */
  applicationId?: number | null;
  file: { filename: string | null; bytes: Buffer } | null;
  vesselId: number;
  trackId?: number | null;
  athleteId?: number | null;
  /**
   * The crew by seat from the bow (one entry per seat of the boat, null for a
   * seat left unnamed); instead of `athleteId`, whose place is seat 1.
   */
  crew?: (number | null)[] | null;
  title?: string;
  notes?: string;
  /** One of the owner's workout templates; its normalized document is copied onto the training. */
  templateId?: number | null;
  /** Segmentation sensitivity, 0.5–10 (default 5). */
  sensitivity?: number;
}

export interface CreatedTraining {
  id: number;
  status: "queued";
}

const invalid = (field: string, message: string) => new AppError("invalid", message, { [field]: [message] });

function checkedText(value: string | undefined, field: string, max: number): string {
  const text = (value ?? "").trim();
  if ([...text].length > max) throw invalid(field, `${field} must be at most ${max} characters`);
  if (hasForbiddenCharacters(text)) throw invalid(field, `${field} ${FORBIDDEN_CHARACTERS_MESSAGE}`);
  return text;
}

/**
 * A training upload (docs/trainings.md "How a training is made"): the
 * checks that need no processing, then — in one transaction — the original
 * file, the training row (queued) and the processing event through the
 * outbox. Processing itself runs in the background (processStoredTraining),
 * because a 90-minute recording takes longer than a request should.
 */
export async function createTrainingFromUpload(
  db: Db,
  input: TrainingUploadInput,
  /** The file's bytes, already staged by a caller that runs the upload inside its own transaction (an Idempotency-Key's; docs/blobs.md). */
  deps: { stagedOriginal?: StagedContent } = {},
): Promise<CreatedTraining> {
  if (!input.user.canCreateSessions) throw new AppError("forbidden", "Your role does not allow creating sessions or trainings");
  if (!input.file || input.file.bytes.length === 0) throw invalid("file", "Choose the .svc file");
  if (!input.file.filename || !/\.svc$/i.test(input.file.filename)) throw invalid("file", "The file name must end in .svc");
  const title = checkedText(input.title, "title", TRAINING_TITLE_MAX);
  const notes = checkedText(input.notes, "notes", TRAINING_NOTES_MAX);
  const sensitivity = input.sensitivity ?? SENSITIVITY.default;
  if (typeof sensitivity !== "number" || !(sensitivity >= SENSITIVITY.min && sensitivity <= SENSITIVITY.max)) {
    throw invalid("sensitivity", `sensitivity must be from ${SENSITIVITY.min} to ${SENSITIVITY.max}`);
  }

  const [vessel] = await db
    .select({ id: vessels.id, supported: vessels.supported, type: vessels.type, npeople: vessels.npeople })
    .from(vessels)
    .where(eq(vessels.id, input.vesselId));
  if (!vessel) throw invalid("vessel_id", `vessel_id ${input.vesselId} does not exist`);
  if (!vessel.supported) throw invalid("vessel_id", `vessel type ${vessel.type} is not supported`);
  if (input.trackId != null) {
    const [track] = await db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.id, input.trackId), trackAccessible(input.user.id)));
    if (!track) throw new AppError("forbidden", `track_id ${input.trackId} is unknown or not accessible`, { track_id: ["Unknown track"] });
  }
  const crew = checkedCrew(input, vessel);
  await requireAccessibleAthletes(db, input.user.id, crew, input.crew != null);
  let templateSnapshot: unknown = null;
  if (input.templateId != null) {
    const [template] = await db
      .select({ template: workoutTemplates.template })
      .from(workoutTemplates)
      .where(and(eq(workoutTemplates.id, input.templateId), eq(workoutTemplates.ownerUserId, input.user.id)));
    // Someone else's template and a missing one answer alike.
    if (!template) throw invalid("template_id", `workout template ${input.templateId} not found`);
    const inspected = inspectTemplate(template.template);
    if (!inspected.valid) throw invalid("template_id", `workout template ${input.templateId} is not a valid version-1 workout`);
    templateSnapshot = inspected.template;
  }

  const sha256 = createHash("sha256").update(input.file.bytes).digest("hex");
  await refuseRepeatedFile(db, input.user.id, sha256);
  try {
    // The bytes are written before the transaction (an object store cannot take part in it); the row naming them commits with the training (docs/blobs.md).
    const original = deps.stagedOriginal ?? (await stageBlob(db, input.file!.bytes));
    const id = await db.transaction(async (tx) => {
      // The athletes may have been deleted since the check; locked until commit, they stay (else the insert would fail on a foreign key).
      await requireAccessibleAthletes(tx as unknown as Db, input.user.id, crew, input.crew != null, true);
      const [row] = await tx
        .insert(trainings)
        .values({
          ownerUserId: input.user.id,
          athleteId: crew.find((c) => c.seat === 1)?.athleteId ?? null,
          vesselId: vessel.id,
          trackId: input.trackId ?? null,
          title,
          notes,
          templateId: input.templateId ?? null,
          templateSnapshot,
          sensitivity,
          createdVia: input.createdVia,
          keyPairId: input.keyPairId ?? null,
          createdByApplicationId: input.applicationId ?? null,
          originalFilename: input.file!.filename,
          originalSha256: sha256,
          status: "queued",
        })
        .returning({ id: trainings.id });
      if (crew.length) await tx.insert(trainingCrew).values(crew.map((c) => ({ trainingId: row.id, ...c })));
      const blob = await commitBlob(tx as unknown as Db, {
        key: trainingOriginalKey(row.id),
        content: original,
        contentType: "application/octet-stream",
      });
      await tx.update(trainings).set({ originalBlobId: blob.id }).where(eq(trainings.id, row.id));
      await sendEvent(tx as unknown as Db, { name: "training/stored", data: { trainingId: row.id } });
      return row.id;
    });
    return { id, status: "queued" };
  } catch (error) {
    // Two uploads of one file raced past the first check: the unique index let one win.
    if (isUniqueViolation(error, "trainings_owner_original_sha256_uq")) await refuseRepeatedFile(db, input.user.id, sha256);
    throw error;
  }
}

type CrewSeat = { seat: number; athleteId: number };

/**
 * The named seats: `crew` (one entry per seat of the boat) or `athleteId`
 * alone (seat 1). Seat 1 wears the heart-rate strap, so its paddler must be
 * named whenever another seat is: otherwise nobody could tell whose heart
 * rate the recording holds.
 */
function checkedCrew(input: Pick<TrainingUploadInput, "athleteId" | "crew">, vessel: { type: string; npeople: number }): CrewSeat[] {
  if (input.crew == null) return input.athleteId != null ? [{ seat: 1, athleteId: input.athleteId }] : [];
  if (input.athleteId != null) throw invalid("athlete_id", "give athlete_id or athletes, not both");
  if (input.crew.length !== vessel.npeople)
    throw invalid(
      "athletes",
      `athletes must have ${vessel.npeople} entr${vessel.npeople === 1 ? "y" : "ies"} for a ${vessel.type}, got ${input.crew.length}`,
    );
  const seats = input.crew.flatMap((athleteId, i) => (athleteId === null ? [] : [{ seat: i + 1, athleteId }]));
  const repeated = seats.find((s, i) => seats.findIndex((o) => o.athleteId === s.athleteId) !== i);
  if (repeated) throw invalid(`athletes[${repeated.seat - 1}]`, `Seat ${repeated.seat}: this athlete already has a seat`);
  if (seats.length && seats[0].seat !== 1)
    throw invalid("athletes[0]", "Seat 1: name the stroke seat's paddler too (the heart-rate strap is theirs)");
  return seats;
}

async function requireAccessibleAthletes(db: Db, userId: number, crew: CrewSeat[], bySeat: boolean, lock = false): Promise<void> {
  if (!crew.length) return;
  const query = db
    .select({ id: athletes.id })
    .from(athletes)
    .where(
      and(
        inArray(
          athletes.id,
          crew.map((c) => c.athleteId),
        ),
        athleteAccessible(userId),
      ),
    )
    .orderBy(athletes.id);
  const present = new Set((lock ? await query.for("key share") : await query).map((a) => a.id));
  const missing = crew.find((c) => !present.has(c.athleteId));
  if (!missing) return;
  const field = bySeat ? `athletes[${missing.seat - 1}]` : "athlete_id";
  throw new AppError("forbidden", `athlete ${missing.athleteId} not found or not accessible`, { [field]: ["Unknown athlete"] });
}

/** The same file twice for one owner is a retry or a mistake: 409 naming the existing training. */
async function refuseRepeatedFile(db: Db, ownerUserId: number, sha256: string): Promise<void> {
  const [existing] = await db
    .select({ id: trainings.id })
    .from(trainings)
    .where(and(eq(trainings.ownerUserId, ownerUserId), eq(trainings.originalSha256, sha256)));
  if (!existing) return;
  const message = `This file was already uploaded: it is training ${existing.id}`;
  throw new AppError("conflict", message, { file: [message] }, { existing_training_id: existing.id });
}

/**
 * The web upload form's metadata part for a training, as JSON:
 * `{ vessel_id, track_id?, athlete_id? | athletes?, title?, notes?, template_id?, sensitivity? }`,
 * `athletes` being one athlete id or null per seat from the bow.
 * Every problem is a 400 naming its field.
 */
export function parseTrainingUploadMetadata(
  raw: string | undefined,
): Pick<TrainingUploadInput, "vesselId" | "trackId" | "athleteId" | "crew" | "title" | "notes" | "templateId" | "sensitivity"> {
  if (raw === undefined) throw new AppError("invalid", "metadata part missing");
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AppError("invalid", "metadata is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new AppError("invalid", "metadata must be a JSON object");
  const m = value as Record<string, unknown>;
  const id = (key: string, required: boolean): number | null => {
    const v = m[key];
    if (v === undefined || v === null || v === "") {
      if (required) throw invalid(key, `${key} is required`);
      return null;
    }
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > INT4_MAX) throw invalid(key, `${key} must be a positive integer`);
    return v;
  };
  const text = (key: string): string | undefined => {
    const v = m[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") throw invalid(key, `${key} must be a string`);
    return v;
  };
  const sensitivity = m.sensitivity;
  if (sensitivity !== undefined && sensitivity !== null && (typeof sensitivity !== "number" || !Number.isFinite(sensitivity)))
    throw invalid("sensitivity", "sensitivity must be a number");
  let crew: (number | null)[] | null = null;
  if (m.athletes !== undefined && m.athletes !== null) {
    if (!Array.isArray(m.athletes) || m.athletes.length > 9) throw invalid("athletes", "athletes must be a list with one entry per seat");
    crew = m.athletes.map((v, i) => {
      if (v === null || v === "") return null;
      if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > INT4_MAX)
        throw invalid(`athletes[${i}]`, `athletes[${i}] must be an athlete id or null`);
      return v;
    });
  }
  return {
    vesselId: id("vessel_id", true)!,
    crew,
    trackId: id("track_id", false),
    athleteId: id("athlete_id", false),
    templateId: id("template_id", false),
    title: text("title"),
    notes: text("notes"),
    sensitivity: (sensitivity as number | null | undefined) ?? undefined,
  };
}
