import { describe, expect, it } from "vitest";
import { dateAxis, distanceAxis, SERIES_TRIM, tickDigits, valueAxis, zeroBasedAxis } from "./chart-axes";

describe("distanceAxis", () => {
  it("ends at the effort's distance and ticks at every split end", () => {
    expect(distanceAxis(1000, [250, 500, 750, 1000])).toEqual({ domain: [0, 1000], ticks: [0, 250, 500, 750, 1000] });
    // A last stroke at 998 m does not shorten the axis.
    expect(distanceAxis(500, [125, 250, 375, 500]).ticks.at(-1)).toBe(500);
  });
  it("labels at most five distances, every second (third, …) split end when there are more, never crowding the end", () => {
    expect(distanceAxis(500, [125, 250, 375, 500]).ticks).toEqual([0, 125, 250, 375, 500]);
    expect(distanceAxis(1000, [200, 400, 600, 800, 1000]).ticks).toEqual([0, 400, 1000]);
    const twenty = Array.from({ length: 20 }, (_, k) => 50 * (k + 1));
    expect(distanceAxis(1000, twenty).ticks).toEqual([0, 250, 500, 750, 1000]);
    for (let n = 2; n <= 20; n++) {
      const ends = Array.from({ length: n }, (_, k) => (1000 * (k + 1)) / n);
      const ticks = distanceAxis(1000, ends).ticks;
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)! - ticks.at(-2)!).toBeGreaterThanOrEqual(1000 / n - 1);
    }
  });
  it("uses round steps without splits and still ends at the distance", () => {
    expect(distanceAxis(250)).toEqual({ domain: [0, 250], ticks: [0, 100, 200, 250] });
    expect(distanceAxis(1000).ticks).toEqual([0, 250, 500, 750, 1000]);
  });
});

describe("valueAxis", () => {
  it("fits a 4.4 m/s effort closely instead of 0–8 m/s", () => {
    const axis = valueAxis([4.25, 4.4, 4.52, 4.38, null])!;
    expect(axis.domain[0]).toBeGreaterThanOrEqual(4);
    expect(axis.domain[0]).toBeLessThanOrEqual(4.25);
    expect(axis.domain[1]).toBeGreaterThanOrEqual(4.52);
    expect(axis.domain[1]).toBeLessThanOrEqual(4.7);
    expect(axis.ticks[0]).toBe(axis.domain[0]);
    expect(axis.ticks.at(-1)).toBe(axis.domain[1]);
  });
  it("keeps the whole of a standing start in view", () => {
    const axis = valueAxis([1.3, 3.2, 5.9, 6.2])!;
    expect(axis.domain[0]).toBeLessThanOrEqual(1.3);
    expect(axis.domain[0]).toBeGreaterThan(0);
    expect(axis.domain[1]).toBeGreaterThanOrEqual(6.2);
    expect(axis.domain[1]).toBeLessThanOrEqual(7);
  });
  it("handles a flat series and no data", () => {
    const flat = valueAxis([120, 120])!;
    expect(flat.domain[0]).toBeLessThan(120);
    expect(flat.domain[1]).toBeGreaterThan(120);
    expect(valueAxis([null, undefined])).toBeNull();
  });
});

describe("tickDigits", () => {
  it("shows as many decimals as the step needs", () => {
    expect(tickDigits({ domain: [100, 130], ticks: [100, 105, 110] })).toBe(0);
    expect(tickDigits({ domain: [1, 2], ticks: [1, 1.5, 2] })).toBe(1);
    expect(tickDigits({ domain: [4, 4.5], ticks: [4.2, 4.25, 4.3] })).toBe(2);
  });
});

/** Ticks one step apart, first and last at the domain's ends. */
function expectEvenTicks(axis: { domain: [number, number]; ticks: number[] }) {
  const steps = axis.ticks.slice(1).map((t, k) => t - axis.ticks[k]);
  for (const step of steps) expect(step).toBeCloseTo(steps[0], 9);
  expect(axis.ticks[0]).toBe(axis.domain[0]);
  expect(axis.ticks.at(-1)).toBe(axis.domain[1]);
  expect(axis.ticks.length).toBeGreaterThanOrEqual(3);
  expect(axis.ticks.length).toBeLessThanOrEqual(9);
}

describe("valueAxis for overlaid series (SERIES_TRIM)", () => {
  // Two 500 m efforts from a standing start: 12 strokes climbing from 0.5 m/s, then 4.9–5.6 m/s, and one GPS spike.
  const effort = (base: number) => [
    ...Array.from({ length: 12 }, (_, k) => 0.5 + (k * (base - 0.5)) / 12),
    ...Array.from({ length: 200 }, (_, k) => base + 0.3 * Math.sin(k / 9)),
  ];
  const speeds = [...effort(5.2), ...effort(5.0), 7.9];

  it("fits the efforts rather than the standing start, with even ticks", () => {
    const whole = valueAxis(speeds)!;
    // Without the trim: 0–8 and the efforts in the top third (what the compare view drew before).
    expect(whole.domain[0]).toBeLessThanOrEqual(0.5);
    const axis = valueAxis(speeds, SERIES_TRIM)!;
    expectEvenTicks(axis);
    expect(axis.domain[0]).toBeGreaterThan(3.5);
    expect(axis.domain[0]).toBeLessThanOrEqual(4.7);
    expect(axis.domain[1]).toBeGreaterThanOrEqual(5.5);
    expect(axis.domain[1]).toBeLessThan(6.5);
    // The body of the data fills most of the height.
    const body = (5.5 - 4.7) / (axis.domain[1] - axis.domain[0]);
    expect(body).toBeGreaterThan(0.5);
  });

  it("keeps even ticks for every untrimmed fit too", () => {
    for (const values of [[4.25, 4.4, 4.52], [1.3, 3.2, 5.9, 6.2], [88, 92, 95, 101], [0.2, 0.21], [120, 120], speeds])
      expectEvenTicks(valueAxis(values)!);
  });
});

describe("dateAxis", () => {
  const day = (d: string) => Date.parse(`${d}T12:00:00Z`);
  it("ticks a season of weekly sets every fortnight or month, evenly, with room at each end", () => {
    const weekly = Array.from({ length: 12 }, (_, k) => day("2026-09-16") + k * 7 * 86_400_000);
    const axis = dateAxis(weekly);
    expect(axis.domain[0]).toBeLessThan(weekly[0]);
    expect(axis.domain[1]).toBeGreaterThan(weekly.at(-1)!);
    expect(axis.ticks[0]).toBe(weekly[0]);
    expect(axis.ticks.length).toBeLessThanOrEqual(6);
    const steps = axis.ticks.slice(1).map((t, k) => t - axis.ticks[k]);
    expect(new Set(steps).size).toBe(1);
    expect(steps[0] % 86_400_000).toBe(0);
  });
  it("handles one day and no data", () => {
    expect(dateAxis([day("2026-10-01")]).ticks).toEqual([day("2026-10-01")]);
    expect(dateAxis([]).ticks).toHaveLength(2);
  });
});

describe("zeroBasedAxis", () => {
  it("starts weekly load bars at zero on about four round steps that hold the tallest bar", () => {
    expect(zeroBasedAxis([0, 120, 370]).ticks).toEqual([0, 100, 200, 300, 400]);
    expect(zeroBasedAxis([37]).ticks).toEqual([0, 10, 20, 30, 40]);
    expect(zeroBasedAxis([400]).domain).toEqual([0, 400]);
  });
  it("holds negative form and positive fitness around one zero line, evenly", () => {
    const axis = zeroBasedAxis([-23, 8, 61]);
    expect(axis.ticks).toContain(0);
    expect(axis.domain[0]).toBeLessThanOrEqual(-23);
    expect(axis.domain[1]).toBeGreaterThanOrEqual(61);
    expectEvenTicks(axis);
  });
  it("draws an empty season as 0–1 instead of dividing by zero", () => {
    expect(zeroBasedAxis([]).domain).toEqual([0, 1]);
    expect(zeroBasedAxis([0, 0]).ticks.length).toBeGreaterThan(1);
  });
});
