import {
  Encoder,
  Profile,
  type ActivityMesg,
  type Encodable,
  type EventMesg,
  type FileIdMesg,
  type LapMesg,
  type Mesg,
  type RecordMesg,
  type SessionMesg,
  type SportMesg,
} from "@garmin/fitsdk";
import type { ExportModel } from "../export-model";

/**
 * The FIT activity (docs/exports.md "FIT"), written with Garmin's own
 * encoder (@garmin/fitsdk): file_id, timer events, one record per second of
 * the bounded series (speed, distance, position, cadence = stroke rate, heart
 * rate when included), one lap per split, the session and the activity.
 * Kayaks are sport `kayaking` (41) and canoes sport `paddling` (19), both
 * sub-sport `generic`: FIT's profile has no sprint-canoe sub-sport. The
 * source is named in the `sport` message and the session's
 * `sport_profile_name` ("K1 training", "K2 session"); a training's laps are
 * its sets, `intensity` active or rest, with no lap trigger for the sets the
 * recording was cut into (FIT has none for "detected"), `session_end` last.
 */
const MESG = Profile.MesgNum;
const SEMICIRCLES_PER_DEGREE = 2 ** 31 / 180;

export function buildFitExport(model: ExportModel): Uint8Array {
  const start = model.startUnixMs;
  const at = (seconds: number) => fitTime(start + seconds * 1000);
  const s = model.summary;
  const durationS = s.duration_ms / 1000;
  const end = at(durationS);
  const sport = model.facts.boatClass.startsWith("K") ? "kayaking" : "paddling";
  // English on purpose: FIT names are profile data, not a report's words.
  const sourceName = `${model.facts.boatClass} ${model.facts.kind}`;
  const training = model.facts.kind === "training";
  const cadence = (rate: number | null | undefined) => (rate === null || rate === undefined ? undefined : Math.min(254, Math.round(rate)));
  const heartRate = (bpm: number | null | undefined) =>
    bpm === null || bpm === undefined || !model.heartRateIncluded ? undefined : Math.round(bpm);

  const encoder = new Encoder();
  const write = <T extends Mesg>(mesg: Encodable<T>) => encoder.writeMesg(mesg);
  write<FileIdMesg>({ mesgNum: MESG.FILE_ID, type: "activity", manufacturer: "development", product: 0, timeCreated: at(0) });
  write<SportMesg>({ mesgNum: MESG.SPORT, sport, subSport: "generic", name: sourceName });
  write<EventMesg>({ mesgNum: MESG.EVENT, timestamp: at(0), event: "timer", eventType: "start", eventGroup: 0 });

  for (const p of fitRecordPoints(start, model.series.t_s)) {
    const position = model.positions[p];
    write<RecordMesg>({
      mesgNum: MESG.RECORD,
      timestamp: at(model.series.t_s[p]),
      positionLat: position ? Math.round(position[0] * SEMICIRCLES_PER_DEGREE) : undefined,
      positionLong: position ? Math.round(position[1] * SEMICIRCLES_PER_DEGREE) : undefined,
      distance: model.series.distance_m?.[p] ?? undefined,
      speed: model.series.speed_m_s?.[p] ?? undefined,
      cadence: cadence(model.series.rate_spm?.[p]),
      heartRate: heartRate(model.series.heart_rate_bpm?.[p]),
    });
  }

  write<EventMesg>({ mesgNum: MESG.EVENT, timestamp: end, event: "timer", eventType: "stopAll", eventGroup: 0 });

  let previous = { elapsedS: 0, distanceM: 0 };
  model.splits.forEach((split, i) => {
    const last = i === model.splits.length - 1;
    write<LapMesg>({
      mesgNum: MESG.LAP,
      messageIndex: i,
      timestamp: at(split.elapsed_s),
      startTime: at(previous.elapsedS),
      event: "lap",
      eventType: "stop",
      lapTrigger: last ? "sessionEnd" : training ? undefined : "distance",
      intensity: split.set ? (split.set.kind === "rest" ? "rest" : "active") : undefined,
      sport,
      subSport: "generic",
      totalElapsedTime: split.split_s,
      totalTimerTime: split.split_s,
      totalDistance: split.distance_m - previous.distanceM,
      avgSpeed: split.speed_m_s,
      avgCadence: cadence(split.rate_spm),
    });
    previous = { elapsedS: split.elapsed_s, distanceM: split.distance_m };
  });

  const firstPosition = model.positions.find((p) => p !== null) ?? null;
  write<SessionMesg>({
    mesgNum: MESG.SESSION,
    messageIndex: 0,
    timestamp: end,
    startTime: at(0),
    event: "session",
    eventType: "stop",
    trigger: "activityEnd",
    sport,
    subSport: "generic",
    sportProfileName: sourceName,
    startPositionLat: firstPosition ? Math.round(firstPosition[0] * SEMICIRCLES_PER_DEGREE) : undefined,
    startPositionLong: firstPosition ? Math.round(firstPosition[1] * SEMICIRCLES_PER_DEGREE) : undefined,
    totalElapsedTime: durationS,
    totalTimerTime: durationS,
    totalDistance: s.distance_m,
    totalCycles: s.stroke_count,
    avgSpeed: s.avg_speed_m_s,
    maxSpeed: s.max_speed_m_s,
    avgCadence: cadence(s.avg_rate_spm),
    maxCadence: cadence(s.max_rate_spm),
    avgHeartRate: heartRate(s.heart_rate?.avg_bpm),
    maxHeartRate: heartRate(s.heart_rate?.max_bpm),
    firstLapIndex: 0,
    numLaps: model.splits.length,
  });
  write<ActivityMesg>({
    mesgNum: MESG.ACTIVITY,
    timestamp: end,
    totalTimerTime: durationS,
    numSessions: 1,
    type: "manual",
    event: "activity",
    eventType: "stop",
    localTimestamp: fitTime(start + s.duration_ms + model.utcOffsetMin * 60_000),
  });
  return encoder.close();
}

/** FIT times are whole seconds from 1989-12-31T00:00:00Z. */
const FIT_EPOCH_MS = Date.UTC(1989, 11, 31);
export const fitTime = (unixMs: number) => Math.floor((unixMs - FIT_EPOCH_MS) / 1000);

/**
 * FIT timestamps are whole seconds: of the bounded series (up to 1000
 * points), the first point of every second becomes a record, and the last
 * point (the effort's end) replaces its second's first so the final distance
 * is recorded.
 */
export function fitRecordPoints(startUnixMs: number, tS: number[]): number[] {
  const out: number[] = [];
  let lastSecond = -1;
  tS.forEach((t, p) => {
    const second = fitTime(startUnixMs + t * 1000);
    if (second !== lastSecond || p === tS.length - 1) {
      if (p === tS.length - 1 && second === lastSecond) out.pop();
      out.push(p);
      lastSecond = second;
    }
  });
  return out;
}
