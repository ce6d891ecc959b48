import { encodeSvc } from "../svc/container";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../svc/simulator/training";
import type { Keyring, SvcContent, VesselType } from "../svc/types";

/**
 * The demo club's season as data (docs/web-app.md "The demo season"): 12
 * ISO weeks of sessions and interval trainings for six athletes across K1,
 * K2, K4, C1 and C2 on three tracks, with regattas, ending in the week of
 * `today`. Pure and deterministic: the same `today` gives the same plan, and
 * every file comes from the project's simulator with a fixed seed. Progress
 * is the simulator's own `fade` (speed lost towards the finish), which
 * shrinks over the season, so times come down week by week.
 */
export const DEMO_SEASON_WEEKS = 12;

/** Roster positions (the seed's athlete order): Lucía, Marta, Pablo, Jon (kayak), Iván, Sergio (canoe). */
export const ROSTER = { lucia: 0, marta: 1, pablo: 2, jon: 3, ivan: 4, sergio: 5 } as const;
/** Track positions: club basin, river stretch, public regatta course. */
export const TRACK = { basin: 0, river: 1, regatta: 2 } as const;

export interface DemoSessionPlan {
  key: string;
  sim: SimulateOptions;
  /** Roster positions, seat 1 first. */
  crew: number[];
  track: number;
  paceId: number;
  startUnixMs: number;
  description?: string;
  competition?: string;
  important?: boolean;
}

export interface DemoTrainingPlan {
  key: string;
  vessel: VesselType;
  /** Index into DEMO_TEMPLATES. */
  template: number;
  athlete: number;
  track: number;
  seed: number;
  startUnixMs: number;
}

export const DEMO_TEMPLATES = [
  { name: "4 × 250 m, 60 s rest", spec: "4x250m/60s", boatClass: "K1" as const, rate: 96 },
  { name: "5 × 45 s, 45 s rest", spec: "5x45s/45s", boatClass: "C1" as const, rate: null },
];

/** Regattas on the public course: week of the season and its name. */
const REGATTAS: Record<number, string> = { 3: "Spring regatta", 7: "Regional championship", 10: "National selection" };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Monday (UTC midnight) of the ISO week holding `day`. */
export function mondayOf(day: Date): number {
  const t = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
}

/**
 * The plan: per week, four crew sessions and one interval training; a
 * regatta replaces Saturday's time trial in three weeks. In the week of
 * `today` only the days up to today are planned (nothing in the future).
 */
export function planDemoSeason(
  today: Date,
  weeks = DEMO_SEASON_WEEKS,
): { firstMonday: string; sessions: DemoSessionPlan[]; trainings: DemoTrainingPlan[] } {
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > DEMO_SEASON_WEEKS) throw new RangeError(`weeks must be 1–${DEMO_SEASON_WEEKS}`);
  const thisMonday = mondayOf(today);
  const firstMonday = thisMonday - (DEMO_SEASON_WEEKS - 1) * 7 * DAY_MS;
  const todayIndex = Math.floor((Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - firstMonday) / DAY_MS);
  const sessions: DemoSessionPlan[] = [];
  const trainings: DemoTrainingPlan[] = [];
  const { lucia, marta, pablo, jon, ivan, sergio } = ROSTER;
  const kayakers = [lucia, marta, pablo, jon];
  const canoeists = [ivan, sergio];
  // Fewer weeks are the season's last ones (a test that needs the accounts, not the season, seeds one).
  for (let week = DEMO_SEASON_WEEKS - weeks; week < DEMO_SEASON_WEEKS; week++) {
    // 12 % of speed lost towards the finish in week 1, 1 % in the last: the season's progress.
    const fade = Number((0.12 - (0.11 * week) / (DEMO_SEASON_WEEKS - 1)).toFixed(3));
    const at = (day: number, hour: number) => firstMonday + (week * 7 + day) * DAY_MS + hour * HOUR_MS;
    const add = (day: number, plan: Omit<DemoSessionPlan, "startUnixMs" | "key">, hour: number) => {
      if (week * 7 + day <= todayIndex)
        sessions.push({ ...plan, key: `w${week + 1}d${day + 1}-${plan.sim.vessel}`, startUnixMs: at(day, hour) });
    };
    add(
      0,
      {
        sim: { vessel: "K4", distanceM: 500, seed: 7000 + week * 10 + 1, pace: "training", fade },
        crew: kayakers,
        track: TRACK.basin,
        paceId: 2,
        description: "K4 500 m steady",
      },
      7,
    );
    add(
      1,
      {
        sim: {
          vessel: "C2",
          distanceM: 500,
          seed: 7000 + week * 10 + 2,
          pace: "training",
          fade,
          noise: week % 3 === 1 ? "noisy" : "clean",
        },
        crew: canoeists,
        track: TRACK.river,
        paceId: 2,
        description: "C2 500 m on the river",
      },
      18,
    );
    const k2 = week % 2 === 0 ? [lucia, marta] : [pablo, jon];
    add(
      3,
      {
        sim: { vessel: "K2", distanceM: 500, seed: 7000 + week * 10 + 3, pace: "race", fade },
        crew: k2,
        track: TRACK.basin,
        paceId: 1,
        description: "K2 500 m race pace",
      },
      7,
    );
    const regatta = REGATTAS[week];
    if (regatta) {
      // Regatta day: the K1 women's 500 m and the C1 200 m, both on the public course.
      add(
        5,
        {
          sim: { vessel: "K1", distanceM: 500, seed: 7000 + week * 10 + 4, pace: "race", fade },
          crew: [week % 2 ? marta : lucia],
          track: TRACK.regatta,
          paceId: 1,
          competition: regatta,
          important: true,
        },
        10,
      );
      add(
        5,
        {
          sim: { vessel: "C1", distanceM: 200, seed: 7000 + week * 10 + 5, pace: "race", fade },
          crew: [canoeists[week % 2]],
          track: TRACK.regatta,
          paceId: 1,
          competition: regatta,
          important: true,
        },
        12,
      );
    } else {
      const k1 = kayakers[week % kayakers.length];
      add(
        5,
        {
          sim: { vessel: "K1", distanceM: week % 2 ? 200 : 500, seed: 7000 + week * 10 + 4, pace: "race", fade },
          crew: [k1],
          track: TRACK.basin,
          paceId: 1,
          competition: "Club time trial",
        },
        10,
      );
    }
    if (week * 7 + TRAINING_DAY <= todayIndex) trainings.push({ ...weeklyTraining(week), startUnixMs: at(TRAINING_DAY, 17) });
  }
  return { firstMonday: new Date(firstMonday + (DEMO_SEASON_WEEKS - weeks) * 7 * DAY_MS).toISOString().slice(0, 10), sessions, trainings };
}

/** Wednesday: the day of the week's interval training. */
const TRAINING_DAY = 2;

/** The week's interval training: kayak and canoe in turn, each paddler of the boat in turn. */
function weeklyTraining(week: number): Omit<DemoTrainingPlan, "startUnixMs"> {
  const { lucia, marta, pablo, jon, ivan, sergio } = ROSTER;
  const kayakers = [lucia, marta, pablo, jon];
  const canoeists = [ivan, sergio];
  const kayak = week % 2 === 0;
  return {
    key: `w${week + 1}-training`,
    vessel: kayak ? "K1" : "C1",
    template: kayak ? 0 : 1,
    athlete: kayak ? kayakers[(week / 2) % kayakers.length] : canoeists[((week - 1) / 2) % canoeists.length],
    track: kayak ? TRACK.basin : TRACK.river,
    seed: 7500 + week,
  };
}

/** A planned workout of the demo season, by roster and template position (the seed resolves the ids). */
export interface DemoWorkoutPlan {
  date: string;
  title: string;
  /** For the athletes, shown with the plan. */
  notes?: string;
  audience: { kind: "athlete"; athlete: number } | { kind: "team" };
  source: { kind: "template"; template: number } | { kind: "written"; blocks: DemoPlanBlock[] };
}
type DemoPlanBlock = { reps: number; rest_s: number; targets?: { rate_spm: number } } & ({ distance_m: number } | { duration_s: number });

/** A template's workout as one written block with `reps` reps (the template's own targets kept). */
function templateBlock(template: number, reps: number): DemoPlanBlock {
  const t = DEMO_TEMPLATES[template];
  const steps = parseTrainingSpec(t.spec)!;
  const work = steps.find((s) => s.kind === "work")!;
  const rest = steps.find((s) => s.kind === "rest")!;
  const volume = work.distance_m !== undefined ? { distance_m: work.distance_m } : { duration_s: work.duration_s! };
  return { reps, rest_s: rest.duration_s!, ...volume, ...(t.rate ? { targets: { rate_spm: t.rate } } : {}) };
}

/**
 * The coach's plans for the demo season (issue 28 §7, docs/plans.md "Demo"): every week's interval
 * training is planned for its day, through next week. Most plans are the template itself; every
 * fourth week asks one rep more than was done (a missed rep, a canoe week) and the week after one rep fewer (an extra
 * set), two past Fridays hold a plan nobody did (a missed workout), and the team has a plan for
 * today and two for next week (not due yet). Pure: the same `today` gives the same plans.
 */
export function planDemoWorkouts(today: Date, weeks = DEMO_SEASON_WEEKS): DemoWorkoutPlan[] {
  const firstMonday = mondayOf(today) - (DEMO_SEASON_WEEKS - 1) * 7 * DAY_MS;
  const todayDate = new Date(today).toISOString().slice(0, 10);
  const date = (week: number, day: number) => new Date(firstMonday + (week * 7 + day) * DAY_MS).toISOString().slice(0, 10);
  const plans: DemoWorkoutPlan[] = [];
  // The season's weeks and the next one (week index DEMO_SEASON_WEEKS).
  for (let week = DEMO_SEASON_WEEKS - weeks; week <= DEMO_SEASON_WEEKS; week++) {
    const { athlete, template } = weeklyTraining(week);
    const templateReps = parseTrainingSpec(DEMO_TEMPLATES[template].spec)!.filter((s) => s.kind === "work").length;
    const audience = { kind: "athlete", athlete } as const;
    const on = date(week, TRAINING_DAY);
    // A rep more (a missed rep) or a rep fewer (an extra set) than the template the training follows.
    const reps = week % 4 === 1 ? templateReps + 1 : week % 4 === 2 ? templateReps - 1 : null;
    if (reps !== null) {
      const block = templateBlock(template, reps);
      const work = "distance_m" in block ? `${block.distance_m} m` : `${block.duration_s} s`;
      plans.push({ date: on, title: `${reps} × ${work}, ${block.rest_s} s rest`, audience, source: { kind: "written", blocks: [block] } });
    } else plans.push({ date: on, title: "", audience, source: { kind: "template", template } });
    if (week === 5 || week === 9)
      plans.push({
        date: date(week, 4),
        title: "2 × 1000 m steady",
        audience: { kind: "athlete", athlete: ROSTER.jon },
        source: { kind: "written", blocks: [{ reps: 2, distance_m: 1000, rest_s: 240, targets: { rate_spm: 72 } }] },
      });
  }
  const teamThreeK: DemoWorkoutPlan["source"] = {
    kind: "written",
    blocks: [{ reps: 3, distance_m: 1000, rest_s: 180, targets: { rate_spm: 80 } }],
  };
  plans.push({
    date: todayDate,
    title: "Club 3 × 1000 m",
    notes: "Hold rate 80 through the last 250 m of each.",
    audience: { kind: "team" },
    source: teamThreeK,
  });
  plans.push({ date: date(DEMO_SEASON_WEEKS, 1), title: "Club 3 × 1000 m", audience: { kind: "team" }, source: teamThreeK });
  plans.push({
    date: date(DEMO_SEASON_WEEKS, 4),
    title: "Starts, 8 × 100 m",
    audience: { kind: "team" },
    source: { kind: "written", blocks: [{ reps: 8, distance_m: 100, rest_s: 90, targets: { rate_spm: 110 } }] },
  });
  return plans;
}

/** The sensor unit of the club's kayaks and of its canoes. */
const UNITS = { kayak: "DEMO-K-0001", canoe: "DEMO-C-0001" };

function dated(content: SvcContent, serial: string, startUnixMs: number): SvcContent {
  return { ...content, header: { ...content.header, deviceSerial: serial, startUnixMs, utcOffsetMin: 60 } };
}

/** A planned session as the bytes of its `.svc` file. */
export function demoSessionFile(plan: DemoSessionPlan, keyring: Keyring): Buffer {
  const content = simulateSession(plan.sim).content;
  return Buffer.from(encodeSvc(dated(content, plan.sim.vessel.startsWith("K") ? UNITS.kayak : UNITS.canoe, plan.startUnixMs), keyring));
}

/** A planned interval training as the bytes of its `.svc` file. */
export function demoTrainingFile(plan: DemoTrainingPlan, keyring: Keyring): Buffer {
  const steps = parseTrainingSpec(DEMO_TEMPLATES[plan.template].spec)!;
  const content = simulateTraining({ vessel: plan.vessel, steps, seed: plan.seed, warmupS: 30, cooldownS: 15 }).content;
  return Buffer.from(encodeSvc(dated(content, plan.vessel.startsWith("K") ? UNITS.kayak : UNITS.canoe, plan.startUnixMs), keyring));
}
