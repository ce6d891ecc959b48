import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { parseUploadMetadata } from "./upload-metadata";
import { uploadErrorInPeoplesWords } from "./upload-messages";

/** The API's real error for this metadata, translated as the upload page shows it. */
function wordsFor(metadata: Record<string, unknown>) {
  const raw = JSON.stringify(metadata);
  try {
    parseUploadMetadata(raw);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { api: error.message, ...uploadErrorInPeoplesWords(error, raw) };
  }
  throw new Error("metadata was accepted");
}

const base = { distance: 500, vessel_id: 2, track_id: 1, category_id: 1, pace_id: 1, athletes: [3, 4] };
// Internal names the page must never show.
const INTERNAL = /athletes\[|_id\b|duration_ms|\bdistance must be between|vessel_id|\bmetadata\b/;

describe("upload errors in people's words", () => {
  it.each([
    [{ ...base, athletes: [3, null] }, "athletes[1]", "Seat 2: choose an athlete"],
    [{ ...base, distance: undefined, duration_ms: 400_000 }, "duration_ms", "Duration must be at most 5 minutes"],
    [{ ...base, distance: undefined, duration_ms: 0 }, "duration_ms", "Duration must be more than 0 seconds"],
    [{ ...base, distance: 1500 }, "distance", "Distance must be at most 1000 m"],
    [{ ...base, distance: 20 }, "distance", "Distance must be at least 50 m"],
    [{ ...base, distance: 200.5 }, "distance", "Distance must be a whole number of metres"],
    [{ ...base, vessel_id: undefined }, "vessel_id", "Choose the boat"],
    [{ ...base, track_id: null }, "track_id", "Choose the track"],
    [{ ...base, athletes: [3, { name: "" }] }, "athletes[1]", "Seat 2: give the external athlete's name"],
    [{ ...base, athletes: [{ name: "Ext", weight: 400 }, 4] }, "athletes[0]", "Seat 1: the weight must be a number from 0 to 150 kg"],
    [{ ...base, athletes: [3, 3] }, "athletes[1]", "Seat 2: this athlete already sits in Seat 1"],
    [{ ...base, competition: "x".repeat(65) }, "competition", "Competition must be at most 64 characters"],
    [{ ...base, description: "a\u0000b" }, "description", "Description contains characters that cannot be stored"],
  ])("%j → %s: %s", (metadata, field, text) => {
    const words = wordsFor(metadata);
    expect(words.fieldErrors).toEqual({ [field]: [text] });
    expect(words.message).toBe("Please correct the highlighted fields.");
    // What the page shows (keys only place a message next to its input).
    expect([words.message, ...Object.values(words.fieldErrors).flat()].join(" ")).not.toMatch(INTERNAL);
    // The API's sentence (the detail behind "Details") is untouched.
    expect(words.api).not.toBe(text);
  });

  it("words the database rules and processing failures by seat and field", () => {
    const meta = JSON.stringify({ ...base, athletes: [3, 9] });
    expect(uploadErrorInPeoplesWords(new AppError("forbidden", "athlete 9 has no active subscription"), meta).fieldErrors).toEqual({
      "athletes[1]": ["Seat 2: this athlete has no active subscription"],
    });
    expect(uploadErrorInPeoplesWords(new AppError("forbidden", "athlete 9 not found or not accessible"), meta).fieldErrors).toEqual({
      "athletes[1]": ["Seat 2: you cannot record sessions for this athlete"],
    });
    expect(uploadErrorInPeoplesWords(new AppError("invalid", "athletes must have 2 entries for a K2, got 1"), meta).fieldErrors).toEqual({
      athletes: ["A K2 has 2 seats: fill every seat"],
    });
    expect(uploadErrorInPeoplesWords(new AppError("forbidden", "track_id 7 is unknown or not accessible"), meta).fieldErrors).toEqual({
      track_id: ["Choose one of your tracks"],
    });
    const noEffort = uploadErrorInPeoplesWords(
      new AppError("unprocessable", "the session cannot be processed: no stroke begins the effort"),
      meta,
    );
    expect(noEffort).toEqual({
      message: "The file could not be processed.",
      fieldErrors: { file: [expect.stringMatching(/^No effort was found in this recording/)] },
    });
    const short = uploadErrorInPeoplesWords(
      new AppError("unprocessable", "the session cannot be processed: the recording ends before 500 m from the start"),
      meta,
    );
    expect(short.fieldErrors).toEqual({ distance: ["The recording ends before 500 m: choose a shorter distance or check the file"] });
    const corrupt = uploadErrorInPeoplesWords(
      new AppError("unprocessable", "file corrupt, truncated or not a valid device session (bad magic)"),
      meta,
    );
    expect(corrupt.fieldErrors).toEqual({ file: ["This file is damaged, incomplete or not a session from a sensor unit"] });
    // Unknown messages never leak: a general sentence, the detail stays with the caller.
    expect(uploadErrorInPeoplesWords(new AppError("invalid", "meteo.wind_speed must be between 0 and 20"), meta)).toEqual({
      message: "The upload could not be accepted.",
      fieldErrors: {},
    });
  });
});
