import { describe, expect, it } from "vitest";
import type { EffortTrack } from "../svc/process/types";
import { courseMap, MAX_COURSE_POINTS } from "./course-map";

/** A straight course due north: 1 m of latitude is 1 / 111_195 degree. */
const DEG_PER_M = 1 / 111_194.93;
function straightTrack(seconds: number, speed: (t: number) => number): EffortTrack {
  const t: number[] = [];
  const distance: number[] = [];
  const speeds: number[] = [];
  let d = 0;
  for (let k = 0; k <= seconds * 10; k++) {
    t.push(k / 10);
    distance.push(d);
    speeds.push(speed(k / 10));
    d += speed(k / 10) / 10;
  }
  const route: [number, number][] = [];
  for (let s = 0; s <= seconds; s++) route.push([40 + distance[s * 10] * DEG_PER_M, -3.7]);
  return { step_s: 0.1, t, distance, speed: speeds, heart_rate: t.map(() => null), route };
}

describe("course map", () => {
  it("places split markers at their distances along the route and colours by the speed there", () => {
    const track = straightTrack(120, (t) => (t < 60 ? 4 : 5));
    const total = track.distance.at(-1)!;
    const map = courseMap(track, [total / 4, total / 2, total])!;
    expect(map.points[0][0]).toBeCloseTo(40, 6);
    for (const split of map.splits) expect((split.lat - 40) / DEG_PER_M).toBeCloseTo(split.distanceM, -0.5);
    expect(map.minSpeed).toBe(4);
    expect(map.maxSpeed).toBe(5);
    // The first half is slower than the second.
    expect(map.points[10][2]).toBe(4);
    expect(map.points.at(-5)![2]).toBe(5);
  });

  it("downsamples long routes but keeps the last fix, and has no map without fixes", () => {
    const long = straightTrack(1800, () => 4.2);
    const map = courseMap(long, [])!;
    expect(map.points.length).toBeLessThanOrEqual(MAX_COURSE_POINTS + 1);
    expect(map.points.at(-1)![0]).toBe(long.route.at(-1)![0]);
    expect(courseMap({ ...long, route: [] }, [100])).toBeNull();
    expect(courseMap({ ...long, route: [[40, -3.7]] }, [100])).toBeNull();
  });
});
