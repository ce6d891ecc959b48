import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { vessels } from "../db/schema";
import { AppError } from "../errors";
import { InvalidSvcError } from "../svc/errors";
import { getKeyring } from "../config/keyring";
import { suggestEffortDistance } from "../svc/process/distance-suggestion";
import { ProcessingError } from "../svc/process/errors";
import type { Keyring, VesselType } from "../svc/types";
import type { SessionUser } from "../users/users";
import { INT4_MAX } from "../contract/values";

export interface SuggestedDistance {
  distance_m: number;
  covered_m: number;
}

/**
 * The web upload's pre-analysis (docs/web-app.md "Upload"): the chosen file
 * is decrypted and analysed in memory for the distance to suggest, and
 * nothing is stored — the person confirms or changes the distance, then
 * uploads. The boat is optional (kayak and canoe strokes are told apart for
 * the start; the distance barely depends on it): K1 when not chosen yet.
 * Errors come in the upload page's words, on the file field.
 */
export async function suggestUploadDistance(
  db: Db,
  input: { user: SessionUser; file: { filename: string | null; bytes: Buffer } | null; vesselId: number | null },
  keyring: Keyring = getKeyring(),
): Promise<SuggestedDistance> {
  if (!input.user.canCreateSessions) throw new AppError("forbidden", "Your role does not allow creating sessions");
  const fileError = (message: string) => new AppError("invalid", message, { file: [message] });
  if (!input.file || input.file.bytes.length === 0) throw fileError("Choose the .svc file");
  if (!input.file.filename || !/\.svc$/i.test(input.file.filename)) throw fileError("The file name must end in .svc");
  let vessel: VesselType = "K1";
  if (input.vesselId !== null) {
    const [row] = await db.select({ type: vessels.type, supported: vessels.supported }).from(vessels).where(eq(vessels.id, input.vesselId));
    if (!row || !row.supported)
      throw new AppError("invalid", "Choose one of the listed boats", { vessel_id: ["Choose one of the listed boats"] });
    vessel = row.type as VesselType;
  }
  try {
    const suggestion = suggestEffortDistance(input.file.bytes, vessel, keyring);
    return { distance_m: suggestion.distanceM, covered_m: suggestion.coveredM };
  } catch (error) {
    const unreadable = (message: string) => new AppError("unprocessable", message, { file: [message] });
    if (error instanceof InvalidSvcError) throw unreadable("This file is damaged, incomplete or not a session from a sensor unit");
    if (error instanceof ProcessingError) throw unreadable("No effort was found in this recording: enter the distance yourself");
    throw error;
  }
}

/** The form's metadata part, `{ "vessel_id": 3 }` or absent: the boat when one is chosen. Anything else is a 400. */
export function parseSuggestionVessel(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const refused = new AppError("invalid", "metadata must be a JSON object with an optional positive integer vessel_id", {
    vessel_id: ["Choose one of the listed boats"],
  });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw refused;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw refused;
  const id = (value as { vessel_id?: unknown }).vessel_id;
  if (id === undefined || id === null) return null;
  if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id > INT4_MAX) throw refused;
  return id;
}
