import { describe, expect, it } from "vitest";
import { DEFAULT_SPEED_ZONES, speedBandOfZone, zoneOfSpeed } from "./zones";

describe("speed zones", () => {
  it("a zone's band is its share of the reference speed; the top zone is open", () => {
    expect(speedBandOfZone(DEFAULT_SPEED_ZONES, 5, 2)).toEqual({ minMS: 3.5, maxMS: 4 });
    expect(speedBandOfZone(DEFAULT_SPEED_ZONES, 5, 6)).toEqual({ minMS: 5, maxMS: null });
    expect(speedBandOfZone(DEFAULT_SPEED_ZONES, 5, 9)).toBeNull();
    expect(speedBandOfZone(DEFAULT_SPEED_ZONES, 0, 2)).toBeNull();
  });

  it("a speed falls in the zone whose band holds it; bounds belong to the upper zone", () => {
    expect(zoneOfSpeed(DEFAULT_SPEED_ZONES, 5, 3.49).zone).toBe(1);
    expect(zoneOfSpeed(DEFAULT_SPEED_ZONES, 5, 3.5).zone).toBe(2);
    expect(zoneOfSpeed(DEFAULT_SPEED_ZONES, 5, 4.9).zone).toBe(5);
    expect(zoneOfSpeed(DEFAULT_SPEED_ZONES, 5, 5.2).zone).toBe(6);
    expect(zoneOfSpeed(DEFAULT_SPEED_ZONES, 0, 4).zone).toBe(1);
  });
});
