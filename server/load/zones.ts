/**
 * Intensity zones of boat speed, relative to the athlete's own reference speed
 * for the boat class (the average speed of their recent best 500 m: see
 * `reference.ts`). One zone model serves the training load (time in each zone,
 * weighted) and the plans (a rep's target may be a zone). docs/load.md states
 * the model and where its defaults come from.
 *
 * A zone is a half-open band [fromPct, toPct) of the reference speed; the last
 * zone has no upper bound (faster than the reference: a new best).
 */
export interface SpeedZone {
  zone: number;
  name: string;
  /** Lower bound, percent of the reference speed (inclusive). */
  fromPct: number;
  /** Upper bound, percent of the reference speed (exclusive); null for the top zone. */
  toPct: number | null;
  /** Load points per minute spent in the zone. */
  weight: number;
}

export const DEFAULT_SPEED_ZONES: readonly SpeedZone[] = [
  { zone: 1, name: "Recovery", fromPct: 0, toPct: 70, weight: 1 },
  { zone: 2, name: "Endurance", fromPct: 70, toPct: 80, weight: 2 },
  { zone: 3, name: "Tempo", fromPct: 80, toPct: 87, weight: 3 },
  { zone: 4, name: "Threshold", fromPct: 87, toPct: 93, weight: 5 },
  { zone: 5, name: "Race pace", fromPct: 93, toPct: 100, weight: 8 },
  { zone: 6, name: "Sprint", fromPct: 100, toPct: null, weight: 12 },
];

/** The speed band of a zone in m/s for a reference speed; null when the zone does not exist. */
export function speedBandOfZone(
  zones: readonly SpeedZone[],
  referenceSpeedMS: number,
  zone: number,
): { minMS: number; maxMS: number | null } | null {
  const z = zones.find((candidate) => candidate.zone === zone);
  if (!z || !(referenceSpeedMS > 0)) return null;
  return { minMS: (referenceSpeedMS * z.fromPct) / 100, maxMS: z.toPct === null ? null : (referenceSpeedMS * z.toPct) / 100 };
}

/** The zone a speed falls in for a reference speed (the lowest zone for a standstill or an unknown reference). */
export function zoneOfSpeed(zones: readonly SpeedZone[], referenceSpeedMS: number, speedMS: number): SpeedZone {
  const sorted = [...zones].sort((a, b) => a.fromPct - b.fromPct);
  if (!(referenceSpeedMS > 0) || !(speedMS > 0)) return sorted[0];
  const pct = (speedMS / referenceSpeedMS) * 100;
  let found = sorted[0];
  for (const z of sorted) if (pct >= z.fromPct) found = z;
  return found;
}
