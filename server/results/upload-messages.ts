import { AppError } from "../errors";
import { FORBIDDEN_CHARACTERS_MESSAGE } from "../contract/values";

/**
 * The upload's errors in people's words, for the web upload page (issue 11,
 * "Messages in people's words"; docs/web-app.md "Upload errors"). The
 * domain's messages name API fields (`athletes[1]`, `duration_ms`) because
 * the results API documents them as its contract; the page instead names
 * the field as the form labels it ("Seat 2: choose an athlete"), and keeps
 * the API's sentence as the technical detail behind "Details".
 *
 * Keys of `fieldErrors` are the form's own keys (the API field names the
 * form already uses to place a message next to its input; never shown).
 */
export interface PeoplesWords {
  /** Above the form: one sentence. */
  message: string;
  fieldErrors: Record<string, string[]>;
}

const LABELS: Record<string, { label: string; choose: string }> = {
  vessel_id: { label: "Boat", choose: "Choose the boat" },
  track_id: { label: "Track", choose: "Choose the track" },
  category_id: { label: "Category", choose: "Choose the category" },
  pace_id: { label: "Pace", choose: "Choose the pace" },
};
const TEXT_LABELS: Record<string, string> = { competition: "Competition", description: "Description" };
const FIX_FIELDS = "Please correct the highlighted fields.";

/** The submitted metadata as far as it is readable: the translation needs values (which bound was crossed, which seats hold an athlete). */
function readMetadata(raw: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw ?? "");
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const seat = (index: number) => `Seat ${index + 1}`;
const fields = (key: string, text: string): PeoplesWords => ({ message: FIX_FIELDS, fieldErrors: { [key]: [text] } });
const minutes = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}` : `${ms / 1000} seconds`);

/** Seats (0-based) whose entry names athlete `id`. */
function seatsOf(meta: Record<string, unknown>, id: number): number[] {
  const crew = Array.isArray(meta.athletes) ? meta.athletes : [];
  return crew.flatMap((entry, index) =>
    entry === id || (typeof entry === "object" && entry !== null && (entry as { id?: unknown }).id === id) ? [index] : [],
  );
}

function range(meta: Record<string, unknown>, key: "distance" | "duration_ms", min: number, max: number): PeoplesWords {
  const value = meta[key];
  const above = typeof value === "number" && value > max;
  if (key === "distance") return fields("distance", above ? `Distance must be at most ${max} m` : `Distance must be at least ${min} m`);
  return fields("duration_ms", above ? `Duration must be at most ${minutes(max)}` : "Duration must be more than 0 seconds");
}

function crewProblem(index: number, rest: string): PeoplesWords {
  const key = `athletes[${index}]`;
  const at = seat(index);
  if (rest.startsWith(": an external athlete needs a name")) return fields(key, `${at}: give the external athlete's name`);
  if (rest.startsWith(".name") || rest.startsWith(".surname")) {
    const what = rest.startsWith(".name") ? "name" : "surname";
    if (rest.includes(FORBIDDEN_CHARACTERS_MESSAGE)) return fields(key, `${at}: the ${what} contains characters that cannot be stored`);
    if (rest.includes("at most")) return fields(key, `${at}: the ${what} must be at most 128 characters`);
    return fields(key, `${at}: give the ${what} as text`);
  }
  if (rest.startsWith(".weight")) return fields(key, `${at}: the weight must be a number from 0 to 150 kg`);
  return fields(key, `${at}: choose an athlete`);
}

/** What a processing failure means for the person holding the file. */
function processingProblem(reason: string): PeoplesWords {
  const short = /the recording ends before (\d+) m from the start/.exec(reason);
  if (short)
    return {
      message: "The file could not be processed.",
      fieldErrors: { distance: [`The recording ends before ${short[1]} m: choose a shorter distance or check the file`] },
    };
  if (reason.includes("the recording ends before the effort's duration")) {
    return {
      message: "The file could not be processed.",
      fieldErrors: { duration_ms: ["The recording ends before this duration: choose a shorter one or check the file"] },
    };
  }
  if (/effort|stroke/.test(reason)) {
    return {
      message: "The file could not be processed.",
      fieldErrors: { file: ["No effort was found in this recording: the boat never starts a piece. Check that this is the right file"] },
    };
  }
  return {
    message: "The file could not be processed.",
    fieldErrors: { file: ["This recording could not be processed. Check that this is the right file"] },
  };
}

/** Translates one upload error; anything it does not know gets a general sentence (the detail is still shown). */
export function uploadErrorInPeoplesWords(error: AppError, rawMetadata: string | undefined): PeoplesWords {
  const m = error.message;
  const meta = readMetadata(rawMetadata);
  let match: RegExpExecArray | null;

  if (error.code === "too_large") return fields("file", "This file is too large for an upload");
  if (error.code === "unprocessable") {
    if (m.startsWith("file corrupt, truncated or not a valid device session"))
      return {
        message: "The file could not be read.",
        fieldErrors: { file: ["This file is damaged, incomplete or not a session from a sensor unit"] },
      };
    if ((match = /^the session cannot be processed: (.*)$/s.exec(m))) return processingProblem(match[1]);
    return processingProblem(m);
  }
  if (m === "file part missing or empty") return fields("file", "Choose the .svc file from your sensor unit");
  if (m === "the file name must end in .svc") return fields("file", "Choose a .svc file (the name ends in .svc)");
  if (m === "give exactly one of distance and duration_ms") return fields("distance", "Give the distance or the duration of the effort");
  if (m === "distance must be an integer") return fields("distance", "Distance must be a whole number of metres");
  if (m === "duration_ms must be an integer" || m === "duration_ms must be a number")
    return fields("duration_ms", "Duration must be a number of seconds");
  if ((match = /^distance must be between (\d+) and (\d+)$/.exec(m))) return range(meta, "distance", Number(match[1]), Number(match[2]));
  if ((match = /^duration_ms must be between (\d+) and (\d+)$/.exec(m)))
    return range(meta, "duration_ms", Number(match[1]), Number(match[2]));
  if ((match = /^(vessel_id|track_id|category_id|pace_id) (is required|must be a positive integer)/.exec(m)))
    return fields(match[1], LABELS[match[1]].choose);
  if ((match = /^(vessel_id|category_id|pace_id) \d+ does not exist$/.exec(m)))
    return fields(match[1], `${LABELS[match[1]].choose} from the list`);
  if ((match = /^vessel type (\S+) is not supported$/.exec(m)))
    return fields("vessel_id", `A ${match[1]} cannot be processed yet: choose another boat`);
  if ((match = /^track_id \d+ is unknown or not accessible$/.exec(m))) return fields("track_id", "Choose one of your tracks");
  if ((match = /^(competition|description) (.*)$/.exec(m))) {
    const label = TEXT_LABELS[match[1]];
    if (match[2].includes("at most")) return fields(match[1], `${label} must be at most 64 characters`);
    if (match[2] === FORBIDDEN_CHARACTERS_MESSAGE) return fields(match[1], `${label} contains characters that cannot be stored`);
    return fields(match[1], `${label} must be text`);
  }
  if ((match = /^athletes\[(\d+)\](.*)$/s.exec(m))) return crewProblem(Number(match[1]), match[2]);
  if ((match = /^athletes: athlete (\d+) is repeated$/.exec(m))) {
    const seats = seatsOf(meta, Number(match[1]));
    const [first, again] = seats.length >= 2 ? seats : [0, 1];
    return fields(`athletes[${again}]`, `${seat(again)}: this athlete already sits in ${seat(first)}`);
  }
  if ((match = /^athletes must have (\d+) entr(?:y|ies) for a (\S+), got \d+$/.exec(m)))
    return fields("athletes", `A ${match[2]} has ${match[1]} seat${match[1] === "1" ? "" : "s"}: fill every seat`);
  if (m.startsWith("athletes must be a list")) return fields("athletes", "Fill in the crew, one paddler per seat");
  if ((match = /^athlete (\d+) (not found or not accessible|has no active subscription)$/.exec(m))) {
    const index = seatsOf(meta, Number(match[1]))[0] ?? 0;
    const text =
      match[2] === "has no active subscription" ? "this athlete has no active subscription" : "you cannot record sessions for this athlete";
    return fields(`athletes[${index}]`, `${seat(index)}: ${text}`);
  }
  if (m.startsWith("more than half of the crew are external athletes"))
    return fields("athletes", "At most half of the crew may be external athletes on your account");
  if (error.code === "forbidden" && m.startsWith("Your role does not allow"))
    return { message: "Your account cannot upload sessions. Ask your club's operator for a coach or athlete account.", fieldErrors: {} };
  if (m.startsWith("metadata") || m.startsWith("send exactly one"))
    return { message: "The upload was not sent as the page expected. Reload the page and try again.", fieldErrors: {} };
  return { message: "The upload could not be accepted.", fieldErrors: {} };
}
