import { describe, expect, it } from "vitest";
import { distanceAtTime, liveFigures, MAX_TIMELINE_POINTS, sessionTimeline, timeAtDistance } from "./session-timeline";

// 100 s at 10 Hz: 5 m/s for the first 50 s, 4 m/s after; strokes every 2.5 m at 120 spm, then every 2 m at 100 spm.
const t = Array.from({ length: 1001 }, (_, k) => k / 10);
const distance = t.map((s) => (s <= 50 ? 5 * s : 250 + 4 * (s - 50)));
const speed = t.map((s) => (s <= 50 ? 5 : 4));
const strokes = [
  ...Array.from({ length: 100 }, (_, k) => ({ distance: 2.5 * k, rate: 120 })),
  ...Array.from({ length: 100 }, (_, k) => ({ distance: 250 + 2 * k, rate: 100 })),
];
const splits = [112.5, 225, 337.5, 450].map((distance_m) => ({ distance_m }));
const timeline = sessionTimeline({ t, distance, speed }, strokes, splits)!;

describe("sessionTimeline", () => {
  it("maps the replay's time to the distance and back", () => {
    expect(distanceAtTime(timeline, 10)).toBeCloseTo(50, 6);
    expect(distanceAtTime(timeline, 75)).toBeCloseTo(350, 6);
    expect(timeAtDistance(timeline, 350)).toBeCloseTo(75, 6);
    expect(timeAtDistance(timeline, -5)).toBe(0);
    expect(timeAtDistance(timeline, 9999)).toBe(100);
    expect(distanceAtTime(timeline, 500)).toBe(450);
  });
  it("gives the live figures: speed, the rate of the stroke under way, the split", () => {
    expect(liveFigures(timeline, 10)).toEqual({ timeS: 10, distanceM: 50, speedMS: 5, rateSpm: 120, split: { number: 1, of: 4 } });
    const late = liveFigures(timeline, 75);
    expect([late.speedMS, late.rateSpm, late.split]).toEqual([4, 100, { number: 4, of: 4 }]);
    expect(liveFigures(timeline, 100).split).toEqual({ number: 4, of: 4 });
    expect(liveFigures(timeline, 22.5).split).toEqual({ number: 2, of: 4 });
  });
  it("stays small for a long paddle and keeps its end", () => {
    const n = 72_001;
    const long = sessionTimeline(
      { t: Array.from({ length: n }, (_, k) => k / 10), distance: Array.from({ length: n }, (_, k) => k / 2), speed: new Array(n).fill(5) },
      [],
      [],
    )!;
    expect(long.t.length).toBeLessThanOrEqual(MAX_TIMELINE_POINTS + 1);
    expect(long.t.at(-1)).toBe(7200);
    expect(liveFigures(long, 10)).toMatchObject({ rateSpm: null, split: null });
  });
});
