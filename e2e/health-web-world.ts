/**
 * The web privacy crawler's world (scripts/e2e-seed-health-web.ts seeds it
 * before the e2e server starts): a club with a coach who manages three
 * athletes (two with accounts of their own, one without), a second coach of
 * the same team, crew sessions and trainings with heart rate, and weight and
 * lactate rows. Every person's health values carry a marker of their own, so
 * that a value on someone else's screen or in someone else's file is
 * recognisable: bpm markers (every stored reading of the person's heart rate
 * is rewritten to it), coverage fractions, and weights and lactate values
 * with four decimals that nothing else in the app produces.
 */
export interface PersonMarkers {
  /** Every heart-rate reading, average and maximum of this person's efforts. */
  bpm: number | null;
  /** The stored heart-rate coverage of their efforts (0–1), shown as a rounded percentage. */
  coverage: number | null;
  /** Weights and lactate values that belong to this person. */
  values: string[];
}

export const HEALTH_WORLD = {
  carla: { email: "carla-coach@health.e2e.example", password: "carla-health-password-e2e", name: "Carla Coach" },
  dora: { email: "dora-cocoach@health.e2e.example", password: "dora-health-password-e2e", name: "Dora Cocoach" },
  ada: { email: "ada-athlete@health.e2e.example", password: "ada-health-password-e2e", name: "Ada Athlete" },
  eli: { email: "eli-crewmate@health.e2e.example", password: "eli-health-password-e2e", name: "Eli Crewmate" },
  team: "Health Web Club",
  /** Seeds of the simulated files (units derive their serials from them). */
  seeds: { adaK1: 7101, adaEliK2: 7102, benK2: 7103, eliK1: 7104, adaTraining: 7111, carlaTraining: 7112, benTraining: 7113 },
  trainings: { ada: "Ada pieces", carla: "Carla own pieces", ben: "Ben pieces" },
  /** A paddler typed by hand into Carla's K2 with Ben; the typed weight is Carla's to see. */
  external: { name: "Xavi", surname: "Typed", weightKg: "88.4417" },
  markers: {
    ada: { bpm: 247, coverage: 0.9173, values: ["58.4127", "11.2839", "10.4671"] },
    eli: { bpm: 241, coverage: 0.8827, values: ["83.6071", "6.7193"] },
    ben: { bpm: 251, coverage: 0.8713, values: [] },
    carla: { bpm: 244, coverage: 0.8591, values: ["77.1935"] },
    dora: { bpm: null, coverage: null, values: ["69.3187"] },
  } satisfies Record<string, PersonMarkers>,
  /** Rows Carla entered for Ada (docs/web-app.md "Health entered by a coach"): Ada's, and visible to Carla who typed them. */
  carlaEnteredForAda: ["59.0413", "12.5077"],
  /** Athlete records' typed weights: the manager (Carla) and the linked account see them. */
  recordWeights: { ada: "57.9361", eli: "81.6043", ben: "64.8253" },
  /**
   * Coach-private notes (docs/comments.md "Private notes"), Carla's, on every session, every training with a
   * paddler and every athlete: the coaches (Carla, Dora) read them on those pages; no athlete, export, share
   * page, replay or API answer may carry them.
   */
  privateNotes: {
    session: "Coach-only note PN-5501 session",
    training: "Coach-only note PN-5502 training",
    athlete: "Coach-only note PN-5503 athlete",
  },
} as const;

/** The coaches of the world's athletes: the private notes are theirs to read. */
const COACHES: HealthViewer[] = ["carla", "dora"];
const NOTES: string[] = Object.values(HEALTH_WORLD.privateNotes);

export type HealthViewer = "carla" | "dora" | "ada" | "eli";

/** The values `viewer` may see: their own, and those entered or typed by or for them. */
function allowedValues(viewer: HealthViewer): Set<string> {
  const W = HEALTH_WORLD;
  const allowed = new Set<string>(W.markers[viewer].values);
  if (viewer === "carla") [...W.carlaEnteredForAda, ...Object.values(W.recordWeights), W.external.weightKg].forEach((v) => allowed.add(v));
  if (viewer === "ada") [...W.carlaEnteredForAda, W.recordWeights.ada].forEach((v) => allowed.add(v));
  if (viewer === "eli") allowed.add(W.recordWeights.eli);
  if (COACHES.includes(viewer)) NOTES.forEach((v) => allowed.add(v));
  return allowed;
}

/**
 * The crawler's canary: what `viewer` may see (their own markers and allowed values). Searched for with
 * the same checks as the forbidden list, it must be found, or the checks could not find a leak either.
 */
export function allowedFor(viewer: HealthViewer): { bpm: number[]; coverage: number[]; values: string[] } {
  const own = HEALTH_WORLD.markers[viewer] as PersonMarkers;
  return {
    bpm: own.bpm === null ? [] : [own.bpm],
    coverage: own.coverage === null ? [] : [own.coverage],
    values: [...allowedValues(viewer)],
  };
}

/** Everything of someone else's that must never reach `viewer`. */
export function forbiddenFor(viewer: HealthViewer): { bpm: number[]; coverage: number[]; values: string[] } {
  const W = HEALTH_WORLD;
  const allowed = allowedValues(viewer);
  const others = (Object.keys(W.markers) as (keyof typeof W.markers)[])
    .filter((p) => p !== viewer)
    .map((p) => W.markers[p] as PersonMarkers);
  const values = [
    ...others.flatMap((m) => m.values),
    ...W.carlaEnteredForAda,
    ...Object.values(W.recordWeights),
    W.external.weightKg,
    ...NOTES,
  ].filter((v) => !allowed.has(v));
  return {
    bpm: others.flatMap((m) => (m.bpm === null ? [] : [m.bpm])),
    coverage: others.flatMap((m) => (m.coverage === null ? [] : [m.coverage])),
    values: [...new Set(values)],
  };
}

/**
 * The lists for what leaves the pages (exports, linked files, share pages, the replay): the private notes are
 * forbidden there for everyone, coaches included.
 */
export function forFiles(lists: { forbidden: ReturnType<typeof forbiddenFor>; canary: ReturnType<typeof allowedFor> }) {
  return {
    forbidden: { ...lists.forbidden, values: [...new Set([...lists.forbidden.values, ...NOTES])] },
    canary: { ...lists.canary, values: lists.canary.values.filter((v) => !NOTES.includes(v)) },
  };
}

/** The viewer reads the private notes (a coach of the world's athletes). */
export const readsPrivateNotes = (viewer: HealthViewer) => COACHES.includes(viewer);
