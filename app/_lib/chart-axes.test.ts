import { describe, expect, it } from "vitest";
import { distanceAxis, tickDigits, valueAxis } from "./chart-axes";

describe("distanceAxis", () => {
  it("ends at the effort's distance and ticks at every split end", () => {
    expect(distanceAxis(1000, [250, 500, 750, 1000])).toEqual({ domain: [0, 1000], ticks: [0, 250, 500, 750, 1000] });
    // A last stroke at 998 m does not shorten the axis.
    expect(distanceAxis(500, [125, 250, 375, 500]).ticks.at(-1)).toBe(500);
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
