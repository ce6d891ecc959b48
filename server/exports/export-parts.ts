// Small pure helpers shared by the session and training export sources (server/exports/export-source.ts,
// training-export-source.ts): a module of their own so neither source imports the other's values.

/** The Data API's session objects carry `session_id`; the model's effort figures carry no owner (each document names its own). */
export function withoutSessionId<T extends { session_id: number }>(value: T): Omit<T, "session_id"> {
  const out: Partial<T> = { ...value };
  delete out.session_id;
  return out as Omit<T, "session_id">;
}

/**
 * A position for each series point, found by distance along the projected
 * route: the route holds fixes only (a lost fix leaves no point), so matching
 * by distance stays right where matching by index would drift.
 */
export function positionsAlong(distances: (number | null)[], route: [number, number][]): ([number, number] | null)[] {
  if (route.length === 0) return distances.map(() => null);
  const cumulative = [0];
  for (let i = 1; i < route.length; i++) cumulative.push(cumulative[i - 1] + haversineM(route[i - 1], route[i]));
  const routeLength = cumulative[cumulative.length - 1];
  const trackLength = Math.max(...distances.map((d) => d ?? 0));
  const scale = trackLength > 0 ? routeLength / trackLength : 0;
  let segment = 0;
  return distances.map((d) => {
    if (d === null) return null;
    const along = d * scale;
    while (segment + 1 < route.length - 1 && cumulative[segment + 1] < along) segment++;
    const next = Math.min(segment + 1, route.length - 1);
    const span = cumulative[next] - cumulative[segment];
    const f = span > 0 ? Math.min(1, Math.max(0, (along - cumulative[segment]) / span)) : 0;
    const [lat0, lon0] = route[segment];
    const [lat1, lon1] = route[next];
    return [round5(lat0 + (lat1 - lat0) * f), round5(lon0 + (lon1 - lon0) * f)];
  });
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;
function haversineM([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(a)));
}
