import { zoneOfSpeed, type SpeedZone } from "./zones";

/**
 * The training-load model (docs/load.md): pure functions over what the boat
 * measured. Speed load is time in speed zones weighted by zone; heart-rate
 * load is Edwards' TRIMP; fitness and fatigue are Banister's impulse-response
 * components as TrainingPeaks (CTL/ATL) and intervals.icu compute them:
 * exponentially weighted daily load with time constants of 42 and 7 days;
 * form is fitness minus fatigue.
 */

/** The parts of a 10 Hz track the model reads (server/svc/process/types.ts EffortTrack). */
export interface LoadTrack {
  t: number[];
  distance: number[];
  speed: number[];
  heart_rate: (number | null)[];
}

export const FITNESS_DAYS = 42;
export const FATIGUE_DAYS = 7;

/** Seconds spent in each zone (zones in the given order): each sample holds the time since the previous one at its speed. */
export function zoneSeconds(track: Pick<LoadTrack, "t" | "speed">, zones: readonly SpeedZone[], referenceSpeedMS: number | null): number[] {
  const seconds = zones.map(() => 0);
  const index = new Map(zones.map((z, k) => [z.zone, k]));
  for (let i = 1; i < track.t.length; i++) {
    const dt = track.t[i] - track.t[i - 1];
    if (!(dt > 0)) continue;
    const zone = zoneOfSpeed(zones, referenceSpeedMS ?? 0, track.speed[i] ?? 0);
    seconds[index.get(zone.zone)!] += dt;
  }
  return seconds.map((s) => round(s, 1));
}

/** Speed load: Σ minutes in a zone × the zone's weight. */
export function speedLoadOf(seconds: readonly number[], zones: readonly SpeedZone[]): number {
  return round(
    seconds.reduce((sum, s, k) => sum + (s / 60) * zones[k].weight, 0),
    1,
  );
}

/** The fastest 500 m of a track as an average speed (m/s): null when it covers less than 500 m. */
export function best500SpeedMS(track: Pick<LoadTrack, "t" | "distance">): number | null {
  const { t, distance } = track;
  let best: number | null = null;
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    if (j < i) j = i;
    while (j < t.length && distance[j] - distance[i] < 500) j++;
    if (j >= t.length) break;
    // Interpolate the instant 500 m was reached between samples j-1 and j.
    const d0 = distance[j - 1] - distance[i];
    const d1 = distance[j] - distance[i];
    const reachedS = t[j - 1] + ((500 - d0) / (d1 - d0 || 1)) * (t[j] - t[j - 1]);
    const elapsed = reachedS - t[i];
    if (elapsed > 0) {
      const speed = 500 / elapsed;
      if (best === null || speed > best) best = speed;
    }
  }
  return best === null ? null : round(best, 4);
}

/**
 * Edwards' TRIMP (1993): minutes in five heart-rate zones of 50–60, 60–70,
 * 70–80, 80–90 and 90–100 % of the maximum, weighted 1 to 5 (below 50 %
 * counts nothing, above the maximum counts as zone 5). Null without readings.
 */
export function edwardsTrimp(track: Pick<LoadTrack, "t" | "heart_rate">, maxHeartRateBpm: number): number | null {
  let points = 0;
  let readings = 0;
  for (let i = 1; i < track.t.length; i++) {
    const bpm = track.heart_rate[i];
    const dt = track.t[i] - track.t[i - 1];
    if (bpm === null || bpm === undefined || !(dt > 0)) continue;
    readings++;
    const pct = (bpm / maxHeartRateBpm) * 100;
    const weight = pct < 50 ? 0 : Math.min(5, Math.floor((pct - 50) / 10) + 1);
    points += (dt / 60) * weight;
  }
  return readings ? round(points, 1) : null;
}

/** A maximum heart rate from age (Tanaka et al. 2001: 208 − 0.7 × age), 190 bpm when the age is unknown. */
export function defaultMaxHeartRate(dateOfBirth: string | null, on: string): number {
  if (!dateOfBirth) return 190;
  const [by, bm, bd] = dateOfBirth.split("-").map(Number);
  const [y, m, d] = on.split("-").map(Number);
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return Math.round(208 - 0.7 * age);
}

export interface FitnessDay {
  date: string;
  load: number;
  fitness: number;
  fatigue: number;
  form: number;
}

/**
 * Fitness (CTL), fatigue (ATL) and form for every day from `from` to `to`
 * (ISO dates, inclusive), starting from zero before the first day:
 * x_d = x_{d−1} + (load_d − x_{d−1}) · (1 − e^{−1/τ}), τ = 42 and 7 days;
 * form_d = fitness_d − fatigue_d. `daily` maps a date to that day's load.
 */
export function fitnessSeries(daily: ReadonlyMap<string, number>, from: string, to: string): FitnessDay[] {
  const kFit = 1 - Math.exp(-1 / FITNESS_DAYS);
  const kFat = 1 - Math.exp(-1 / FATIGUE_DAYS);
  const out: FitnessDay[] = [];
  let fitness = 0;
  let fatigue = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const load = daily.get(day) ?? 0;
    fitness += (load - fitness) * kFit;
    fatigue += (load - fatigue) * kFat;
    out.push({
      date: day,
      load: round(load, 1),
      fitness: round(fitness, 1),
      fatigue: round(fatigue, 1),
      form: round(fitness - fatigue, 1),
    });
  }
  return out;
}

/** ISO date plus n days (calendar arithmetic in UTC). */
export function addDays(isoDate: string, n: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The Monday of the ISO week holding a date. */
export function weekStart(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return addDays(isoDate, -((day + 6) % 7));
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
