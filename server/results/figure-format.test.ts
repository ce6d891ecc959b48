import { describe, expect, it } from "vitest";
import {
  formatDuration,
  formatHeartRate,
  formatPace500,
  formatPaceAndSpeed,
  formatRate,
  formatSeconds,
  formatSpeed,
  formatStrokeDistance,
} from "./figure-format";
import { pace500Tenths, speedRange } from "./figures";

describe("one formatter per unit", () => {
  it("rounds a time once, to the hundredth, carrying into the minute (the PDFs' old clock wrote 119.996 s as 1:60.00)", () => {
    expect(formatSeconds(119.996)).toBe("2:00.00");
    expect(formatDuration(95_430)).toBe("1:35.43");
    expect(formatSeconds(59.994)).toBe("0:59.99");
  });

  it("writes pace per 500 m to the tenth, from the speed as given, and the APIs' seconds agree", () => {
    expect(formatPace500(4.5)).toBe("1:51.1");
    expect(formatPace500(500 / 119.96)).toBe("2:00.0");
    expect(formatPace500(0)).toBe("—");
    expect(formatPace500(null)).toBe("—");
    expect(pace500Tenths(4.5)).toBe(111.1);
    expect(formatPaceAndSpeed(4.5)).toBe("1:51.1 /500 m (4.50 m/s)");
  });

  it("writes speed, rate, distance per stroke and heart rate at their stated rounding", () => {
    expect([formatSpeed(4.355), formatRate(118.04), formatStrokeDistance(2.345), formatHeartRate(171.5)]).toEqual([
      "4.36",
      "118.0",
      "2.35",
      "172",
    ]);
    expect([formatSpeed(null), formatRate(null), formatStrokeDistance(undefined), formatHeartRate(null)]).toEqual(["—", "—", "—", "—"]);
  });
});

describe("the speed range in words", () => {
  it("leaves out the standing start up to 90 % of the average speed, and keeps the top speed as given", () => {
    const t = [0, 1, 2, 3, 4, 5];
    const speed = [0.2, 2, 4.6, 5.4, 4.8, 5];
    const distance = [0, 1, 4, 9, 14, 19];
    const range = speedRange({ t, speed, distance }, { avgSpeedMS: 5, topSpeedMS: 5.4 })!;
    expect(range).toEqual({ topSpeedMS: 5.4, topAtM: 9, slowestMS: 4.6, slowestAtM: 4, startExcludedS: 2 });
  });
});
