import { describe, expect, it } from "vitest";
import { best500SpeedMS, edwardsTrimp, fitnessSeries, speedLoadOf, zoneSeconds } from "./model";
import { DEFAULT_SPEED_ZONES } from "./zones";

describe("training-load model (docs/load.md)", () => {
  it("time in zones and the weighted speed load, by hand", () => {
    // Reference 5 m/s: 60 s at 3 m/s (60 %, zone 1), 60 s at 4.5 m/s (90 %, zone 4).
    const t = Array.from({ length: 121 }, (_, i) => i);
    const speed = t.map((s) => (s <= 60 ? 3 : 4.5));
    const seconds = zoneSeconds({ t, speed }, DEFAULT_SPEED_ZONES, 5);
    expect(seconds).toEqual([60, 0, 0, 60, 0, 0]);
    expect(speedLoadOf(seconds, DEFAULT_SPEED_ZONES)).toBe(1 * 1 + 1 * 5);
    // No reference yet: every minute counts in zone 1.
    expect(zoneSeconds({ t, speed }, DEFAULT_SPEED_ZONES, null)).toEqual([120, 0, 0, 0, 0, 0]);
  });

  it("the fastest 500 m of a track", () => {
    const t = Array.from({ length: 301 }, (_, i) => i);
    const distance = t.map((s) => (s <= 100 ? s * 4 : 400 + (s - 100) * 5));
    expect(best500SpeedMS({ t, distance })).toBeCloseTo(5, 6);
    expect(best500SpeedMS({ t: [0, 10], distance: [0, 40] })).toBeNull();
  });

  it("Edwards TRIMP: minutes × zone of %HRmax", () => {
    const t = Array.from({ length: 181 }, (_, i) => i);
    // HRmax 200: 60 s at 110 (55 %, ×1), 60 s at 150 (75 %, ×3), 60 s at 190 (95 %, ×5).
    const hr = t.map((s) => (s <= 60 ? 110 : s <= 120 ? 150 : 190));
    expect(edwardsTrimp({ t, heart_rate: hr }, 200)).toBe(9);
    expect(edwardsTrimp({ t, heart_rate: t.map(() => null) }, 200)).toBeNull();
  });

  it("fitness (42 d), fatigue (7 d) and form, hand-checked", () => {
    const days = fitnessSeries(new Map([["2026-01-01", 100]]), "2026-01-01", "2026-01-02");
    // 100·(1−e^{−1/42}) = 2.353, 100·(1−e^{−1/7}) = 13.312; the next day each decays by e^{−1/τ}.
    expect(days[0]).toEqual({ date: "2026-01-01", load: 100, fitness: 2.4, fatigue: 13.3, form: -11 });
    expect(days[1]).toEqual({ date: "2026-01-02", load: 0, fitness: 2.3, fatigue: 11.5, form: -9.2 });
  });
});
