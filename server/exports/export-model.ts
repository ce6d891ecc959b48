import { z } from "zod";
import type { Surface } from "../auth/oauth/scopes";
import type { ZLactate } from "../records/records-health-wire";
import { ZCrewSeat, type ZSeries, type ZSessionDetail, type ZSessionSummary, type ZSplit, type ZStroke } from "../sessions/sessions-wire";
import { ZTrainingDetail, ZTrainingSet, type ZSetSplits, type ZTrainingSummary, type ZTrainingTimeline } from "../trainings/trainings-wire";

/** A training's set in the export: the Data API's set, and whether a person corrected it by hand. */
export const ZExportTrainingSet = ZTrainingSet.extend({
  corrected: z.boolean().describe("the set's boundaries or kind were corrected by hand (docs/trainings.md); false for a set as detected"),
});

/** The training member: the Data API's training detail, with the crew and the review state. */
export const ZExportTraining = ZTrainingDetail.extend({
  needs_review: z
    .boolean()
    .describe("reprocessing could not re-apply a hand correction, so the sets should be checked (docs/trainings.md)"),
  crew: z
    .array(ZCrewSeat)
    .describe(
      "every seat in boat order, as the person may see it: a seat whose paddler the person may not see, or who has no account record, has `athlete: null`, never a made-up identity",
    ),
  sets: z.array(ZExportTrainingSet).describe("work sets and rests in time order"),
});

/**
 * What an export is built from, loaded once and already projected
 * (docs/exports.md "Builders"). Every field here comes out of the Data API's
 * allowlisted serializers, so a file can never hold more than the API would
 * show the same person; the format builders only lay it out.
 */

/** What is exported: a session, or a whole training (server/exports/training-export-source.ts). */
export type ExportSource = { kind: "session"; sessionId: number } | { kind: "training"; trainingId: number };

/**
 * Who asks. The web application reads as the Data API's `data` surface does
 * (so a web download and a data-surface API download are the same bytes);
 * an API job passes the calling application's surface.
 */
export interface ExportViewer {
  userId: number;
  application?: { id: number; surface: Surface };
}

export interface ExportSelection {
  /** Seat (1–4) whose identity and heart rate the file is about. */
  athlete: number;
  /** Equal-distance splits, 1–20. */
  splits: number;
  mode: "full" | "privacy-safe";
  /** The person may receive their own health data (web app: yes; API: the token holds health:read). */
  healthAllowed: boolean;
}

/** A summary of the whole effort; each JSON document adds the id of what it describes. */
export type EffortSummary = Omit<z.output<typeof ZSessionSummary>, "session_id">;
/** The bounded series of the whole effort, without an owning id. */
export type EffortSeries = Omit<z.output<typeof ZSeries>, "session_id">;
/** A stroke; a training's strokes also name their work set. */
export type ExportStroke = z.output<typeof ZStroke> & { set_id?: number };
/** A lap: a session's equal-distance split, or one set of a training (`set` then says which, and whether work or rest). */
export type ExportLap = z.output<typeof ZSplit> & { set?: { id: number; position: number; kind: "work" | "rest" } };

/**
 * What every format names about the source, in its own terms: a session or a
 * training, its id and date, what the person wrote. Absent is null, never a
 * placeholder (issue 23 §4): a training without a track has `track: null`.
 */
export interface ExportFacts {
  kind: "session" | "training";
  id: number;
  /** The training's title; null for a session (its words are in `notes`). */
  title: string | null;
  /** Free text: a session's competition and description, a training's notes; empty ones left out. */
  notes: string[];
  date: string;
  timeOfDay: string;
  boatClass: string;
  /** The track's name, null when none was chosen. */
  track: string | null;
  crew: z.output<typeof ZCrewSeat>[];
  distanceM: number;
  durationMs: number;
}

interface ExportModelCommon {
  mode: "full" | "privacy-safe";
  facts: ExportFacts;
  /**
   * The chosen seat as the crew list shows it. `athlete` is null only where
   * the projection has no identity to give (a person's own practice recorded
   * without an athlete record; a privacy-safe seat), never a made-up one.
   */
  athlete: z.output<typeof ZCrewSeat>;
  summary: EffortSummary;
  /** Session: equal-distance splits (ExportRequest `splits`). Training: one lap per set, work and rest. */
  splits: ExportLap[];
  strokes: ExportStroke[];
  /** At most 1000 evenly spaced points; `heart_rate_bpm` only when heart rate is included. */
  series: EffortSeries;
  /** [latitude, longitude] at each series point, from the downsampled route (null without fixes). */
  positions: ([number, number] | null)[];
  /** The person's own lactate readings of this effort (manual and own-device only); null when health is not included. */
  lactate: z.output<typeof ZLactate>[] | null;
  heartRateIncluded: boolean;
  /** Effort start, ms since the epoch: every timestamp in a file derives from it, never from the clock. */
  startUnixMs: number;
  /** Device clock offset from UTC, minutes (local times in reports). */
  utcOffsetMin: number;
}

export type ExportModel = ExportModelCommon &
  (
    | { source: Extract<ExportSource, { kind: "session" }>; session: z.output<typeof ZSessionDetail> }
    | { source: Extract<ExportSource, { kind: "training" }>; training: TrainingExportPart }
  );

/** A training's own members of the JSON document, already serialized (its JSON schema, ZExportTraining, is above). */
export interface TrainingExportPart {
  detail: z.output<typeof ZExportTraining>;
  summary: z.output<typeof ZTrainingSummary>;
  timeline: z.output<typeof ZTrainingTimeline>;
  setSplits: z.output<typeof ZSetSplits>[];
}
