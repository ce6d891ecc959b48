import type { EffortTrack } from "../svc/process/types";

/** Points drawn at most: one a second for 8 minutes, fewer for longer sessions. */
export const MAX_COURSE_POINTS = 500;

export interface CourseMap {
  /** [lat, lon, speed m/s] in effort order, downsampled. */
  points: [number, number, number][];
  /** Metres from the start at each of `points` (where the page's cursor puts its marker on the course). */
  pointDistancesM: number[];
  /** Equal-distance split ends: distance from the start (m) and where on the course. */
  splits: { distanceM: number; lat: number; lon: number }[];
  minSpeed: number;
  maxSpeed: number;
}

const EARTH_RADIUS_M = 6_371_000;
function haversineM(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Linear interpolation of ys at x over ascending xs (clamped at the ends). */
function interpolate(xs: number[], ys: number[], x: number): number {
  if (!xs.length) return 0;
  if (x <= xs[0]) return ys[0];
  if (x >= xs[xs.length - 1]) return ys[ys.length - 1];
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid;
    else hi = mid;
  }
  const span = xs[hi] - xs[lo];
  return span > 0 ? ys[lo] + ((ys[hi] - ys[lo]) * (x - xs[lo])) / span : ys[lo];
}

/**
 * The course map of a stored effort: its GNSS route (about one fix a second,
 * gaps where the unit had no fix) placed along the effort's distance, so each
 * point gets the smoothed speed at its distance and the split markers sit at
 * their distances. The route's own length is scaled to the effort's distance
 * (the processed distance is the better measure; the route only places it).
 * Null when the file had no fixes.
 */
export function courseMap(track: Omit<EffortTrack, "heart_rate">, splitDistancesM: number[]): CourseMap | null {
  const route = track.route;
  if (route.length < 2) return null;
  const along = [0];
  for (let k = 1; k < route.length; k++) along.push(along[k - 1] + haversineM(route[k - 1], route[k]));
  const routeLength = along[along.length - 1];
  const effortDistance = track.distance[track.distance.length - 1] ?? routeLength;
  const scale = routeLength > 0 ? effortDistance / routeLength : 0;
  const distanceAt = along.map((d) => d * scale);
  const stride = Math.max(1, Math.ceil(route.length / MAX_COURSE_POINTS));
  const points: [number, number, number][] = [];
  const pointDistancesM: number[] = [];
  const add = (k: number) => {
    points.push([route[k][0], route[k][1], interpolate(track.distance, track.speed, distanceAt[k])]);
    pointDistancesM.push(Math.round(distanceAt[k] * 10) / 10);
  };
  for (let k = 0; k < route.length; k += stride) add(k);
  const last = route.length - 1;
  if (last % stride !== 0) add(last);
  const splits = splitDistancesM.map((distanceM) => ({
    distanceM,
    lat: interpolate(
      distanceAt,
      route.map((p) => p[0]),
      distanceM,
    ),
    lon: interpolate(
      distanceAt,
      route.map((p) => p[1]),
      distanceM,
    ),
  }));
  const speeds = points.map((p) => p[2]);
  return { points, pointDistancesM, splits, minSpeed: Math.min(...speeds), maxSpeed: Math.max(...speeds) };
}
