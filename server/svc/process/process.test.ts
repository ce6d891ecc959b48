import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeSvc, encodeSvc } from "../container";
import { InvalidSvcError } from "../errors";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import type { VesselType } from "../types";
import { ProcessingError } from "./errors";
import { processSvc } from "./process";
import { buildSeries, computeSplits, MAX_SERIES_POINTS } from "./track";

const keyring = loadKeyring({});

describe.each([
  ["K1", 500, "race", "clean", 11],
  ["K2", 200, "race", "noisy", 12],
  ["C1", 500, "training", "noisy", 13],
  ["C4", 1000, "race", "clean", 14],
] as [VesselType, number, "race" | "training", "clean" | "noisy", number][])("%s %i m %s %s", (vessel, distanceM, pace, noise, seed) => {
  const simulation = simulateSession({ vessel, distanceM, pace, noise, seed });
  const processed = processSvc(encodeSvc(simulation.content, keyring), { vessel, distanceM }, keyring);
  const truth = simulation.truth;

  it("finds the start, every stroke and the sides", () => {
    expect(Math.abs(processed.effort.start_s - truth.effort_start_s)).toBeLessThan(0.15);
    expect(Math.abs(processed.strokes.length - truth.catches.length)).toBeLessThanOrEqual(1);
    expect(processed.effort.dist).toBe(distanceM);
    if (vessel.startsWith("K")) {
      const sides = processed.strokes.map((s) => s.side);
      expect(sides.every((s) => s === "left" || s === "right")).toBe(true);
      expect(processed.strokes[0].left_stroke_distance ?? processed.strokes[0].right_stroke_distance).toBeGreaterThan(0);
    } else {
      expect(processed.strokes.every((s) => s.side === null && s.stroke_distance! > 0)).toBe(true);
    }
  });

  it("gives splits whose last time is the effort's duration", () => {
    const splits = computeSplits(processed.track, processed.strokes, 4);
    expect(splits).toHaveLength(4);
    expect(splits[3].time_s * 1000).toBeCloseTo(processed.effort.duration_ms, -1);
    expect(splits[3].distance_m).toBe(distanceM);
    splits.forEach((split, k) => expect(Math.abs(split.time_s - truth.split_times_s["4"][k])).toBeLessThan(0.25));
    expect(() => computeSplits(processed.track, processed.strokes, 21)).toThrow(RangeError);
  });

  it("bounds the series and the replay", () => {
    const series = buildSeries(processed.track, processed.strokes, {
      fields: ["speed", "rate", "heart_rate"],
      maxPoints: 5000,
      startS: processed.effort.start_s,
    });
    expect(series.t.length).toBeLessThanOrEqual(MAX_SERIES_POINTS);
    expect(series.speed.length).toBe(series.t.length);
    const replay = processed.replay;
    expect(replay.schema).toBe(1);
    expect(replay.frame_count).toBe(replay.frames.length);
    expect(Math.abs(replay.frame_count / 30 - processed.effort.duration_ms / 1000)).toBeLessThan(0.1);
    expect(replay.frames.every((f) => f.length === 7 && f[1] === 0 && f[2] === 0)).toBe(true);
    expect(processed.data_quality.imu_samples).toBe(simulation.content.imu.total);
  });
});

it("is deterministic", () => {
  const bytes = encodeSvc(simulateSession({ vessel: "K1", durationMs: 60_000, seed: 3 }).content, keyring);
  expect(JSON.stringify(processSvc(bytes, { vessel: "K1", durationMs: 60_000 }, keyring))).toBe(
    JSON.stringify(processSvc(bytes, { vessel: "K1", durationMs: 60_000 }, keyring)),
  );
});

it("reads the local date and time of the start from the device clock", () => {
  const simulation = simulateSession({ vessel: "K1", distanceM: 200, seed: 21 });
  const processed = processSvc(encodeSvc(simulation.content, keyring), { vessel: "K1", distanceM: 200 }, keyring);
  const local = new Date(simulation.content.header.startUnixMs + processed.effort.start_s * 1000 + 120 * 60_000);
  expect(processed.date).toBe(local.toISOString().slice(0, 10));
  expect(processed.time_of_day).toMatch(/^\d{2}:\d{2}:\d{2}\+02:00$/);
});

it("refuses a valid file without an effort (the 12 s reference) with a ProcessingError", () => {
  const reference = fs.readFileSync(path.join(import.meta.dirname, "../../../test/fixtures/svc/reference-v1.svc"));
  expect(() => processSvc(reference, { vessel: "K1", distanceM: 500 }, keyring)).toThrow(ProcessingError);
  expect(() => processSvc(Buffer.from("nope"), { vessel: "K1", distanceM: 500 }, keyring)).toThrow(InvalidSvcError);
});

it("refuses a distance the recording never reaches", () => {
  const bytes = encodeSvc(simulateSession({ vessel: "C1", distanceM: 200, seed: 5 }).content, keyring);
  expect(decodeSvc(bytes, keyring).imu.total).toBeGreaterThan(0);
  expect(() => processSvc(bytes, { vessel: "C1", distanceM: 1000 }, keyring)).toThrow(/ends before 1000 m/);
});
