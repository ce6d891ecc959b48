import { randomUUID } from "node:crypto";
import { Decoder, Stream } from "@garmin/fitsdk";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { buildExport, type ExportFormat } from "../exports/builders";
import { pdfText } from "../../test/support/pdf-tools";
import { serializeSessionSummary } from "../sessions/sessions-wire";
import { serializeResultDetail } from "../http/results-api/serializers";
import { buildResultReport } from "../reports/build-result-report";
import { parseLogQuery, readLogPage } from "../sessions/session-log";
import { getSharedSessionView } from "../shares/shared-session";
import { sessionPublicLink } from "../shares/share-links";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { finalTimeUncertainty } from "../svc/process/uncertainty";
import type { VesselType } from "../svc/types";
import { createTrack } from "../tracks/tracks";
import { serializeSetSummary } from "../trainings/trainings-wire";
import { getWorkSets } from "../trainings/training-reads";
import { loadTrainingView } from "../trainings/training-view";
import { createProcessedTraining } from "../../test/support/trainings";
import { createUser, type SessionUser } from "../users/users";
import { courseMap } from "./course-map";
import {
  formatDuration,
  formatHeartRate,
  formatPace500,
  formatPaceAndSpeed,
  formatRate,
  formatSeconds,
  formatStrokeDistance,
} from "./figure-format";
import { averageSpeedMS, pace500Tenths, sessionFigures, speedRange, speedRangeSentence, type SessionFigures } from "./figures";
import { getStoredAnalysis, splitsOf } from "./result-analysis";
import { getResultDetail } from "./result-detail";
import { uploadResult } from "./upload-result";

/**
 * One figure per fact (docs/processing.md "Figures: one value per fact"):
 * simulated sessions of several classes go through the real upload, and
 * every surface that can be read without a browser — the log's rows, the
 * share page's view, the course and chart sentence, the results API's PDF
 * and detail, the Data API's summary, and the JSON, PDF, full PDF, XLSX,
 * FIT and TCX exports — must state the same figures at its own rounding.
 * The pages a person sees are read in e2e/figures.spec.ts.
 */
const keyring = loadKeyring({});
const CASES: { vessel: VesselType; vesselId: number; distanceM: number; seed: number; crew: number }[] = [
  // Seed 1: its stored 3-decimal average formats one tenth of pace away from distance ÷ time (the log-versus-page case).
  { vessel: "K2", vesselId: 2, distanceM: 1000, seed: 1, crew: 2 },
  { vessel: "K1", vesselId: 1, distanceM: 500, seed: 5, crew: 1 },
  { vessel: "C1", vesselId: 4, distanceM: 200, seed: 3, crew: 1 },
];

let handle: DbHandle;
let anna: SessionUser;
const sessions: { vessel: VesselType; id: number; figures: SessionFigures; heartRate: { avg: number | null; max: number | null } }[] = [];

beforeAll(async () => {
  handle = await openTestDb();
  const db = handle.db;
  anna = await createUser(db, { name: "Anna Figures", email: `anna-fig-${randomUUID()}@test.example`, password: "long enough password" });
  const own = await createAthlete(db, anna.id, { name: "Anna", surname: "Figures", subscriptionActiveUntil: "2099-01-01" });
  await db.update(athletes).set({ userId: anna.id }).where(eq(athletes.id, own.id));
  const mate = await createAthlete(db, anna.id, { name: "Bea", surname: "Mate", subscriptionActiveUntil: "2099-01-01" });
  const trackId = (await createTrack(db, anna.id, { name: "Figures Basin" })).id;
  for (const c of CASES) {
    const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: c.vessel, distanceM: c.distanceM, seed: c.seed }).content, keyring));
    const metadata = JSON.stringify({
      distance: c.distanceM,
      vessel_id: c.vesselId,
      track_id: trackId,
      category_id: 1,
      pace_id: 1,
      athletes: [own.id, mate.id].slice(0, c.crew),
    });
    const { id } = await uploadResult(
      db,
      { user: anna, createdVia: "web", keyPairId: null, file: { filename: `${c.vessel}.svc`, bytes }, metadata },
      { keyring },
    );
    const stored = (await getStoredAnalysis(db, id))!;
    sessions.push({
      vessel: c.vessel,
      id,
      figures: sessionFigures(stored.summary),
      heartRate: { avg: stored.summary.avg_heart_rate, max: stored.summary.max_heart_rate },
    });
  }
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

const r3 = (v: number) => Math.round(v * 1000) / 1000;
const exportOf = (id: number, format: ExportFormat) =>
  buildExport(
    handle.db,
    { kind: "session", sessionId: id },
    { userId: anna.id },
    { format, athlete: 1, splits: 4, lang: "en", mode: "full", healthAllowed: true },
  );

describe("one figure per fact", () => {
  it("the K2 case is real: the stored 3-decimal average and distance ÷ time format to different paces", async () => {
    const k2 = sessions[0];
    const stored = (await getStoredAnalysis(handle.db, k2.id))!;
    expect(formatPace500(stored.summary.avg_speed)).not.toBe(formatPace500(k2.figures.avgSpeedMS));
    expect(stored.summary.avg_speed).toBe(r3(k2.figures.avgSpeedMS));
  });

  it("the log rows carry the same distance and time, so the same pace", async () => {
    const { rows } = await readLogPage(handle.db, anna.id, parseLogQuery({}));
    for (const s of sessions) {
      const row = rows.find((r) => r.id === s.id)!;
      expect(row.distanceM).toBe(s.figures.distanceM);
      expect(row.durationMs).toBe(s.figures.durationMs);
    }
  });

  it("both APIs: the Data API summary and the results API detail", async () => {
    for (const s of sessions) {
      const stored = (await getStoredAnalysis(handle.db, s.id))!;
      const data = serializeSessionSummary(s.id, stored.summary, stored.dataQuality, true, finalTimeUncertainty(stored.track));
      expect(data).toMatchObject({
        distance_m: s.figures.distanceM,
        duration_ms: s.figures.durationMs,
        avg_speed_m_s: r3(s.figures.avgSpeedMS),
        max_speed_m_s: s.figures.topSpeedMS,
        stroke_count: s.figures.strokeCount,
        avg_rate_spm: s.figures.avgRateSpm,
        avg_stroke_distance_m: s.figures.avgStrokeDistanceM,
        heart_rate: { avg_bpm: s.heartRate.avg, max_bpm: s.heartRate.max },
      });
      const detail = serializeResultDetail(await getResultDetail(handle.db, anna.id, s.id));
      expect(detail.dist).toBe(s.figures.distanceM);
      expect(detail.duration).toBe(s.figures.durationMs);
      expect(detail.data_strokes!.stroke_count).toBe(s.figures.strokeCount);
    }
  });

  it("the share page's view, the course text and the speed chart's words state the same figures, and the range leaves out the standing start", async () => {
    for (const s of sessions) {
      const { token } = await sessionPublicLink(handle.db, anna.id, s.id);
      const view = (await getSharedSessionView(handle.db, token))!;
      expect(view.figures).toEqual(s.figures);
      const stored = (await getStoredAnalysis(handle.db, s.id))!;
      const range = speedRange(stored.track, s.figures)!;
      expect(view.speedSentence).toBe(speedRangeSentence(range));
      expect(view.speedSentence).toContain(
        `Top speed ${s.figures.topSpeedMS!.toFixed(2)} m/s (${formatPace500(s.figures.topSpeedMS)} /500 m)`,
      );
      // The map's downsampled points say less about the top (they gave 5.27 where the PDF said 5.35); the words do not read them.
      const map = courseMap(stored.track, [])!;
      expect(map.maxSpeed).toBeLessThanOrEqual(s.figures.topSpeedMS! + 1e-9);
      // The slowest speed quoted is after the start: not the standstill's the map points hold, but near race pace.
      expect(range.startExcludedS).toBeGreaterThan(0.5);
      // (a canoe's smoothed speed still dips within each stroke: its slowest is a trough near race pace, 0.77 of the average on C1 seed 3)
      expect(range.slowestMS).toBeGreaterThan(0.7 * s.figures.avgSpeedMS);
      expect(map.minSpeed).toBeLessThan(0.5 * s.figures.avgSpeedMS);
    }
  });

  it("the results API's PDF and the compact and full PDF exports print the same figures, pace beside every speed", async () => {
    for (const s of sessions) {
      const f = s.figures;
      const expected = [
        formatSeconds(f.durationMs / 1000),
        `${f.distanceM} m`,
        formatPaceAndSpeed(f.avgSpeedMS),
        formatPaceAndSpeed(f.topSpeedMS),
        `${formatRate(f.avgRateSpm)} spm`,
        `${formatStrokeDistance(f.avgStrokeDistanceM)} m`,
      ];
      const stored = (await getStoredAnalysis(handle.db, s.id))!;
      const splits = splitsOf(stored, await getResultDetail(handle.db, anna.id, s.id), 4);
      const report = pdfText(
        (await buildResultReport(handle.db, { userId: anna.id, resultId: s.id, lang: "en", splits: 4, appUrl: "http://localhost" })).pdf,
      );
      const compact = pdfText((await exportOf(s.id, "pdf")).bytes);
      const full = pdfText((await exportOf(s.id, "pdf-full")).bytes, 1);
      for (const [name, text] of [
        ["report", report],
        ["pdf", compact],
        ["pdf-full", full],
      ] as const) {
        const flat = text.replace(/[ \t]+/g, " ");
        for (const value of expected) expect(flat, `${s.vessel} ${name}: ${value}`).toContain(value);
        // The compact PDF puts the count beside its label; the full PDF's fact grid puts labels on one line and values on the next.
        expect(flat, `${s.vessel} ${name}: strokes`).toMatch(new RegExp(`Strokes[^\\n]*\\n?[^\\n]*?\\b${f.strokeCount}\\b`));
        for (const split of splits)
          expect(flat, `${s.vessel} ${name}: split pace`).toContain(`${formatPace500(split.speed)} /500 m ${split.speed.toFixed(2)} m/s`);
      }
      // The full PDF carries the owner's heart rate.
      if (s.heartRate.avg !== null) expect(full).toContain(`${formatHeartRate(s.heartRate.avg)} / ${formatHeartRate(s.heartRate.max)}`);
    }
  });

  it("the JSON, XLSX, FIT and TCX exports hold the same figures at their rounding", async () => {
    for (const s of sessions) {
      const f = s.figures;
      const json = JSON.parse(new TextDecoder().decode((await exportOf(s.id, "json")).bytes));
      expect(json.summary).toMatchObject({
        distance_m: f.distanceM,
        duration_ms: f.durationMs,
        avg_speed_m_s: r3(f.avgSpeedMS),
        max_speed_m_s: f.topSpeedMS,
        stroke_count: f.strokeCount,
        avg_rate_spm: f.avgRateSpm,
        avg_stroke_distance_m: f.avgStrokeDistanceM,
        heart_rate: { avg_bpm: s.heartRate.avg, max_bpm: s.heartRate.max },
      });

      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from((await exportOf(s.id, "xlsx")).bytes) as unknown as ArrayBuffer);
      const cells = new Map<string, unknown>();
      workbook.getWorksheet("Summary")!.eachRow((row) => cells.set(String(row.getCell(1).value), row.getCell(2).value));
      expect(
        Object.fromEntries(
          [
            "Distance",
            "Duration",
            "Strokes",
            "Average speed",
            "Top speed",
            "Average rate",
            "Average distance per stroke",
            "Average heart rate",
            "Maximum heart rate",
          ].map((k) => [k, cells.get(k)]),
        ),
      ).toEqual({
        Distance: f.distanceM,
        Duration: f.durationMs / 1000,
        Strokes: f.strokeCount,
        "Average speed": r3(f.avgSpeedMS),
        "Top speed": f.topSpeedMS,
        "Average rate": f.avgRateSpm,
        "Average distance per stroke": f.avgStrokeDistanceM,
        "Average heart rate": s.heartRate.avg,
        "Maximum heart rate": s.heartRate.max,
      });

      const fit = new Decoder(Stream.fromByteArray(Array.from((await exportOf(s.id, "fit")).bytes))).read({ mergeHeartRates: false });
      const [session] = fit.messages.sessionMesgs!;
      // FIT stores speed in mm/s and time in ms: the API's 3 decimals exactly.
      expect(session).toMatchObject({
        totalCycles: f.strokeCount,
        avgCadence: Math.round(f.avgRateSpm!),
        avgHeartRate: s.heartRate.avg,
        maxHeartRate: s.heartRate.max,
      });
      expect(session.avgSpeed).toBeCloseTo(r3(f.avgSpeedMS), 6);
      expect(session.maxSpeed).toBeCloseTo(f.topSpeedMS!, 6);
      expect(session.totalElapsedTime).toBeCloseTo(f.durationMs / 1000, 6);
      expect(session.totalDistance).toBeCloseTo(f.distanceM, 2);

      const tcx = new TextDecoder().decode((await exportOf(s.id, "tcx")).bytes);
      const sum = (tag: string) =>
        [
          ...tcx.matchAll(
            new RegExp(`<Lap [^>]*>\\s*<TotalTimeSeconds>([\\d.]+)</TotalTimeSeconds>\\s*<DistanceMeters>([\\d.]+)</DistanceMeters>`, "g"),
          ),
        ].reduce((a, m) => a + Number(m[tag === "time" ? 1 : 2]), 0);
      expect(formatDuration(sum("time") * 1000)).toBe(formatDuration(f.durationMs));
      expect(Math.round(sum("distance"))).toBe(f.distanceM);
    }
  });

  it("a training's work sets: the training page's set figures and the Data API's set summaries are the same facts, pace from distance ÷ time", async () => {
    const training = await createProcessedTraining(handle.db, anna, { spec: "4x250m/60s", vessel: "K2", seed: 41, keyring });
    expect(training.outcome.status).toBe("ready");
    const view = await loadTrainingView(handle.db, anna.id, training.id);
    const works = await getWorkSets(handle.db, training.id);
    expect(works.length).toBe(4);
    for (const work of works) {
      const shown = view.sets.find((set) => set.id === work.id)!;
      const api = serializeSetSummary(work, false);
      // The set's row and its summary describe the same piece.
      expect([shown.distanceM, shown.durationMs, shown.strokeCount]).toEqual([
        work.summary.distance_m,
        work.summary.duration_ms,
        work.summary.stroke_count,
      ]);
      const speed = averageSpeedMS(shown.distanceM, shown.durationMs);
      expect(api).toMatchObject({
        distance_m: shown.distanceM,
        duration_ms: shown.durationMs,
        stroke_count: shown.strokeCount,
        avg_speed_m_s: r3(speed),
        pace_500m_s: pace500Tenths(speed),
      });
      // The page writes the pace as m:ss.t from the same speed: the API's seconds to the tenth say the same.
      const [m, sec] = formatPace500(speed).split(":");
      expect(Number(m) * 60 + Number(sec)).toBeCloseTo(api.pace_500m_s!, 6);
    }
  }, 60_000);
});
