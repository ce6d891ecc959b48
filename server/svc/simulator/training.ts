import type { SvcContent, VesselType, WorkoutStep } from "../types";
import { boatProfile } from "./boat-profiles";
import { Random } from "./random";
import { distanceAt, DRIVE_FRACTION, IMU_HZ, renderSensors, round, surgeShape, timeAtDistance, type Stroke } from "./simulate";

/**
 * Interval practices (docs/simulator.md "Interval practices"): warm-up,
 * work pieces by distance or time, rests with light paddling or drifting
 * (with positioning strokes before a standing start), cool-down, rendered
 * through the same sensor model as a single effort, with truth per set.
 */
export interface TrainingSimulateOptions {
  vessel: VesselType;
  /** Work and rest steps in order (a normalized workout template, or `parseTrainingSpec`). */
  steps: WorkoutStep[];
  seed: number;
  noise?: "clean" | "noisy";
  /** Warm-up and cool-down lengths, s (default: 90–180 and 60–120, drawn from the seed). */
  warmupS?: number;
  cooldownS?: number;
  /** How rests by time are spent: drifting (then a standing start), light paddling (then a rolling start), or drawn per rest (default). */
  rests?: "drifting" | "paddling" | "mixed";
  /** A crew that tires visibly: 12–15 % fade within a piece and 2–3 % per rep (default: 5–15 % and about 1 %). */
  tiring?: boolean;
}

export interface TrainingSetTruth {
  kind: "work" | "rest";
  /** Seconds on the recording clock: a work set starts at its first catch and ends where its distance or time is reached; a rest fills the gap between two work sets. */
  start_s: number;
  end_s: number;
  distance_m: number;
  stroke_count: number;
  /** Work sets: the template step they come from (index into the steps). */
  step_index: number | null;
  /** Work sets: from a drift (a standing start: 4–8 quicker, stronger start strokes) or from light paddling (rolling). */
  start: "standing" | "rolling" | null;
  /** Cumulative split times (s from the set start) for 4 equal splits of work sets. */
  split_times_s: number[] | null;
  catches: { t_s: number; side: "left" | "right" | null }[];
}

export interface TrainingTruth {
  vessel: VesselType;
  noise: "clean" | "noisy";
  seed: number;
  steps: WorkoutStep[];
  /** How each rest was spent, in order. */
  rest_modes: ("paddling" | "drifting")[];
  /** Recording-clock times of the first sweep stroke of each 180° turn. */
  turns_s: number[];
  sets: TrainingSetTruth[];
}

export interface TrainingSimulation {
  content: SvcContent;
  truth: TrainingTruth;
  /** Truth distance from the first sample at each IMU sample (m). */
  distanceM: Float64Array;
}

/**
 * "6x500m/120s" (6 pieces of 500 m, 120 s rest between) or "10x60s/60s"
 * (pieces of 60 s). Rests may be given by distance ("4x1000m/200m").
 */
export function parseTrainingSpec(spec: string): WorkoutStep[] | null {
  const match = /^\s*(\d{1,2})\s*x\s*(\d{1,5})(m|s)\s*\/\s*(\d{1,4})(m|s)\s*$/i.exec(spec);
  if (!match) return null;
  const count = Number(match[1]);
  const work = Number(match[2]);
  const rest = Number(match[4]);
  if (count < 1 || count > 50 || work < 1 || rest < 1) return null;
  const workUnit = match[3].toLowerCase();
  const restUnit = match[5].toLowerCase();
  if (
    (workUnit === "m" && work > 10_000) ||
    (workUnit === "s" && work > 3600) ||
    (restUnit === "s" && rest > 1800) ||
    (restUnit === "m" && rest > 2000)
  )
    return null;
  const steps: WorkoutStep[] = [];
  for (let k = 0; k < count; k++) {
    if (k > 0) steps.push(restUnit === "m" ? { kind: "rest", distance_m: rest } : { kind: "rest", duration_s: rest });
    steps.push(workUnit === "m" ? { kind: "work", distance_m: work } : { kind: "work", duration_s: work });
  }
  return steps;
}

interface Phase {
  kind: "warmup" | "lineup" | "work" | "rest" | "cooldown";
  stepIndex: number | null;
  distanceM?: number;
  durationS?: number;
  /** Rests: paddle lightly or drift (and line up for a standing start). */
  mode: "paddling" | "drifting";
  rateSpm: number;
  speedMS: number;
  amplitude: number;
  tauS: number;
  /** Work: the piece's number (0-based), for the fade across reps. */
  rep?: number;
}

/** Per-practice character of the crew (drawn from the seed; docs/simulator.md "Interval practices"). */
interface Crew {
  /** Speed and drive lost from a piece's first catch to its finish (rate loses half as much). */
  fadeInPiece: number;
  /** Speed and drive lost per rep (rate loses half as much). */
  fadePerRep: number;
  /** Stroke-to-stroke spread of the drive (uniform ±), and a third of it for the rate. */
  variation: number;
  /** Kayaks: the stronger side's drive is this much above the weaker side's. */
  asymmetry: number;
  strongSide: "left" | "right";
}

export function simulateTraining(options: TrainingSimulateOptions): TrainingSimulation {
  if (!options.steps.some((s) => s.kind === "work")) throw new Error("a training needs at least one work step");
  const rng = new Random(options.seed * 104_729 + 31);
  const noisy = (options.noise ?? "clean") === "noisy";
  const base = boatProfile(options.vessel, "race");
  const raceSpeed = base.speedMS * rng.uniform(0.96, 1.04);
  const raceRate = base.rateSpm * rng.uniform(0.95, 1.05);
  const tiring = options.tiring ?? false;
  const crew: Crew = {
    fadeInPiece: tiring ? rng.uniform(0.12, 0.15) : rng.uniform(0.05, 0.15),
    fadePerRep: tiring ? rng.uniform(0.02, 0.03) : rng.uniform(0.007, 0.013),
    variation: rng.uniform(0.05, 0.1),
    asymmetry: base.kayak ? rng.uniform(0.02, 0.08) : 0,
    strongSide: rng.next() < 0.5 ? "left" : "right",
  };
  const light = (
    share: number,
    kind: Phase["kind"],
    stepIndex: number | null,
    length: { distanceM?: number; durationS?: number },
    mode: Phase["mode"],
  ): Phase => ({
    kind,
    stepIndex,
    ...length,
    mode,
    rateSpm: raceRate * share,
    speedMS: raceSpeed * share,
    amplitude: base.driveAccelMS2 * (share - 0.2),
    tauS: 6,
  });

  const restMode = (step: WorkoutStep): Phase["mode"] => {
    // Rests by distance are paddled; by time, as the option says (mixed: drawn per rest).
    if (step.duration_s === undefined) return "paddling";
    const rests = options.rests ?? "mixed";
    return rests === "mixed" ? (rng.next() < 0.5 ? "drifting" : "paddling") : rests;
  };
  const phases: Phase[] = [light(0.62, "warmup", null, { durationS: options.warmupS ?? rng.uniform(90, 180) }, "paddling")];
  // A crew that drifts between pieces also lines up for the first one: a standing start.
  if (options.rests === "drifting") phases.push(light(0.5, "lineup", null, { durationS: rng.uniform(30, 60) }, "drifting"));
  let rep = 0;
  options.steps.forEach((step, index) => {
    const length = step.distance_m !== undefined ? { distanceM: step.distance_m } : { durationS: step.duration_s };
    if (step.kind === "rest") {
      phases.push(light(0.5, "rest", index, length, restMode(step)));
      return;
    }
    // Intensity from the piece's length unless the step gives a rate: sprints at race pace, longer pieces easier.
    const seconds = step.duration_s ?? step.distance_m! / raceSpeed;
    const share = step.targets?.rate_spm
      ? Math.min(1.1, step.targets.rate_spm / raceRate)
      : seconds <= 75
        ? 1
        : seconds <= 240
          ? 0.92
          : 0.85;
    phases.push({
      kind: "work",
      stepIndex: index,
      ...length,
      mode: "paddling",
      rateSpm: raceRate * share,
      speedMS: raceSpeed * (0.55 + 0.45 * share),
      amplitude: base.driveAccelMS2 * share,
      tauS: base.accelerationTauS,
      rep: rep++,
    });
  });
  phases.push(light(0.5, "cooldown", null, { durationS: options.cooldownS ?? rng.uniform(60, 120) }, "paddling"));

  const estimateS = phases.reduce((sum, p) => sum + (p.durationS ?? (p.distanceM! / Math.max(1, p.speedMS)) * 1.6 + 10), 20);
  const maxSamples = Math.ceil(estimateS * IMU_HZ);
  const speed = new Float64Array(maxSamples);
  const accel = new Float64Array(maxSamples);
  const position = new Float64Array(maxSamples);
  const phaseOf = new Float64Array(maxSamples).fill(-1);
  const strokeOf = new Int32Array(maxSamples).fill(-1);
  const strokes: (Stroke & { phase: number })[] = [];
  const phaseStart: number[] = [];
  const phaseStartX: number[] = [];
  const restModes: Phase["mode"][] = phases.filter((p) => p.kind === "rest").map((p) => p.mode);

  let p = 0;
  let vMean = 0.2;
  let v = vMean;
  let x = 0;
  let nextCatch = rng.uniform(1, 3);
  let currentStroke = -1;
  let side: "left" | "right" = rng.next() < 0.5 ? "left" : "right";
  let sinceStart = 0; // strokes since the work phase began
  // The standing start of the current piece (null: a rolling start).
  let start: { strokes: number; rateBoost: number; driveBoost: number; settleS: number } | null = null;
  // Strokes planned inside a drifting rest: a 180° turn (sweeps) and light positioning strokes.
  let planned: { t: number; period: number; amplitude: number; turnDeg?: number; side?: "left" | "right" }[] = [];
  let glideS = 0.5; // the speed a drift glides down to
  const turns: number[] = [];
  const standing = new Map<number, boolean>(); // work phase → standing start
  let stopAt = Number.POSITIVE_INFINITY;
  phaseStart.push(0);
  phaseStartX.push(0);
  let n = 0;
  for (; n < maxSamples; n++) {
    const t = n / IMU_HZ;
    let phase = phases[p];
    // Phase end: distance crossing (interpolated within the sample) or elapsed time.
    const covered = x - phaseStartX[p];
    const elapsed = t - phaseStart[p];
    const done = phase.distanceM !== undefined ? covered >= phase.distanceM : elapsed >= phase.durationS!;
    if (done && p + 1 < phases.length) {
      // x is position[n - 1], the distance at time (n - 1) / IMU_HZ; the crossing lies after (n - 2) / IMU_HZ.
      const before = n >= 2 ? position[n - 2] - phaseStartX[p] : 0;
      const endT =
        phase.distanceM !== undefined
          ? (n - 2 + (phase.distanceM - before) / Math.max(1e-9, covered - before)) / IMU_HZ
          : phaseStart[p] + phase.durationS!;
      const previousMode = phase.mode;
      p++;
      phase = phases[p];
      planned = [];
      if (phase.kind === "work") {
        // The first catch of a work set is its start: from light paddling, the next catch of the
        // rhythm (a stroke is not cut short); from a drift, just after the rest ended.
        const running = currentStroke >= 0 ? strokes[currentStroke] : null;
        const cycleEnd = running && t < running.t + running.period ? running.t + running.period : 0;
        const startT = Math.max(t, endT, cycleEnd) + rng.uniform(0, 0.009);
        phaseStart.push(startT);
        phaseStartX.push(Number.NaN); // the distance at the first catch, set once the boat gets there
        nextCatch = startT;
        sinceStart = 0;
        // From a drift, a standing start: 4–8 strokes 15–20 % quicker with drives 1.5–2× cruise, settled within 5–10 s.
        standing.set(p, previousMode === "drifting");
        start =
          previousMode === "drifting"
            ? {
                strokes: Math.floor(rng.uniform(4, 9)),
                rateBoost: rng.uniform(0.15, 0.2),
                driveBoost: rng.uniform(1.5, 2),
                settleS: rng.uniform(5, 10),
              }
            : null;
      } else {
        phaseStart.push(endT);
        phaseStartX.push(phases[p - 1].distanceM !== undefined ? phaseStartX[p - 1] + phases[p - 1].distanceM! : x);
        nextCatch = Math.max(nextCatch, t + (phase.mode === "drifting" ? Number.POSITIVE_INFINITY : 60 / phase.rateSpm));
        if (phase.mode === "drifting") {
          glideS = rng.uniform(0.2, 0.8);
          const restS = phase.durationS!;
          let free = endT; // the rest is free for positioning strokes from here
          // A 180° turn soon after a finish (half the rests after a piece): ~10 sweep strokes over ~15 s.
          if (phase.kind === "rest" && restS >= 30 && rng.next() < 0.5) {
            const count = Math.floor(rng.uniform(8, 13));
            const period = rng.uniform(13, 17) / count;
            const turnAt = endT + rng.uniform(3, Math.min(8, restS - 24));
            const direction = rng.next() < 0.5 ? 1 : -1;
            const sweepSide = rng.next() < 0.5 ? "left" : "right";
            for (let k = 0; k < count; k++) {
              // Kayaks sweep forward on one side and back on the other (sides alternate); canoes sweep on theirs.
              planned.push({
                t: turnAt + k * period,
                period,
                amplitude: base.driveAccelMS2 * rng.uniform(0.25, 0.35),
                turnDeg: (direction * 180) / count,
                side: k % 2 === 0 ? sweepSide : sweepSide === "left" ? "right" : "left",
              });
            }
            free = turnAt + count * period + 2;
            turns.push(round(turnAt, 4));
          }
          // Half the drifts end with 2–5 light positioning strokes in the last 8–16 s.
          const window = rng.uniform(8, 16);
          if (rng.next() < 0.5 && endT + restS - window > free) {
            const count = Math.floor(rng.uniform(2, 6));
            const from = endT + restS - window;
            const spacing = (window - 1.5) / count;
            for (let k = 0; k < count; k++)
              planned.push({
                t: from + k * spacing + rng.uniform(0, 0.5 * spacing),
                period: 60 / (raceRate * 0.55),
                amplitude: base.driveAccelMS2 * rng.uniform(0.3, 0.4),
              });
          }
        }
        if (phase.kind === "cooldown") stopAt = endT + phase.durationS!;
      }
    }
    if (t >= stopAt) break;

    // Strokes: the phase's own rhythm, turns and positioning strokes while drifting.
    const strokeStop = phase.kind === "cooldown" ? stopAt - 6 : Number.POSITIVE_INFINITY;
    if (planned.length && t >= planned[0].t) {
      const next = planned.shift()!;
      const stroke = {
        t,
        period: next.period,
        amplitude: next.amplitude,
        side: base.kayak ? (next.side ?? side) : null,
        inEffort: false,
        phase: p,
      };
      strokes.push(next.turnDeg ? { ...stroke, turnDeg: next.turnDeg } : stroke);
      side = side === "left" ? "right" : "left";
    }
    if (t >= nextCatch && t < strokeStop) {
      let rate = phase.rateSpm;
      let amplitude = phase.amplitude;
      const spread = 2 * rng.next() - 1; // uniform ±1: stroke-to-stroke variation
      if (phase.kind === "work") {
        const k = sinceStart++;
        const fade = 1 - crew.fadeInPiece * pieceProgress(phase, t - phaseStart[p], x - phaseStartX[p]) - crew.fadePerRep * phase.rep!;
        let rateFactor = 1 - (1 - fade) / 2;
        let driveFactor = fade;
        if (start) {
          // Start strokes at full boost, then settling linearly to cruise by settleS from the first catch.
          const since = t - phaseStart[p];
          const settle = k < start.strokes ? 1 : Math.max(0, 1 - since / Math.max(start.settleS, 1e-3));
          rateFactor *= 1 + start.rateBoost * settle;
          driveFactor *= 1 + (start.driveBoost - 1) * settle;
        } else {
          rateFactor *= 0.9 + 0.1 * (1 - Math.exp(-k / 4)); // a rolling start picks up the rate over a few strokes
        }
        rate *= rateFactor * (1 + (spread * crew.variation) / 3);
        amplitude *= driveFactor * (1 + spread * crew.variation);
        if (base.kayak) amplitude *= 1 + (side === crew.strongSide ? crew.asymmetry / 2 : -crew.asymmetry / 2);
      } else {
        rate *= 1 + rng.normal(0, 0.03);
        amplitude *= 1 + spread * crew.variation;
      }
      strokes.push({
        t: nextCatch,
        period: 60 / rate,
        amplitude,
        side: base.kayak ? side : null,
        inEffort: phase.kind === "work",
        phase: p,
      });
      side = side === "left" ? "right" : "left";
      nextCatch += 60 / rate;
    }
    while (currentStroke + 1 < strokes.length && strokes[currentStroke + 1].t <= t) currentStroke++;
    let surge = 0;
    if (currentStroke >= 0) {
      const s = strokes[currentStroke];
      const cycle = (t - s.t) / s.period;
      if (cycle < 1) {
        const scale = 0.35 + 0.65 * Math.min(1, vMean / Math.max(0.5, phase.speedMS));
        surge = s.amplitude * surgeShape(cycle) * (cycle < DRIVE_FRACTION ? 1 : scale);
        phaseOf[n] = cycle;
        strokeOf[n] = currentStroke;
      }
    }
    // Mean speed: toward the phase's speed (fading in work); a drift glides down to its floor.
    const waiting = phase.kind === "work" && t < phaseStart[p]; // the previous rhythm runs on until the first catch
    let goal = waiting ? phases[p - 1].speedMS : phase.speedMS;
    let tau = waiting ? phases[p - 1].tauS : phase.tauS;
    if (phase.kind === "work" && !waiting)
      goal *= 1 - crew.fadeInPiece * pieceProgress(phase, t - phaseStart[p], x - phaseStartX[p]) - crew.fadePerRep * phase.rep!;
    if (phase.mode === "drifting" || (waiting && phases[p - 1].mode === "drifting")) {
      goal = glideS;
      tau = 8;
    }
    if (t >= strokeStop) {
      goal = 0.2;
      tau = 5;
    }
    const meanAccel = (goal - vMean) / tau;
    vMean += meanAccel / IMU_HZ;
    const a = meanAccel + surge;
    const before = v;
    v = Math.max(0, v + a / IMU_HZ);
    v += (vMean - v) * (1 / (IMU_HZ * 8));
    // What an accelerometer feels is the change of speed, whatever caused it.
    accel[n] = (v - before) * IMU_HZ;
    speed[n] = v;
    x += v / IMU_HZ;
    position[n] = x;
    if (Number.isNaN(phaseStartX[p]) && n / IMU_HZ >= phaseStart[p]) {
      const before = n > 0 ? position[n - 1] : 0;
      phaseStartX[p] = before + (x - before) * (phaseStart[p] - (n - 1) / IMU_HZ) * IMU_HZ;
    }
  }
  const total = n;

  const track = position.slice(0, total);
  const at = (t: number) => distanceAt(track, t);
  const works: { startT: number; endT: number; phase: number }[] = [];
  phases.forEach((phase, k) => {
    if (phase.kind !== "work" || k + 1 >= phaseStart.length) return;
    works.push({ startT: phaseStart[k], endT: phaseStart[k + 1], phase: k });
  });
  const catchesIn = (from: number, to: number) =>
    strokes.filter((s) => s.t >= from && s.t < to).map((s) => ({ t_s: round(s.t, 4), side: s.side }));
  const sets: TrainingSetTruth[] = [];
  works.forEach((work, k) => {
    if (k > 0) {
      const previous = works[k - 1];
      sets.push({
        kind: "rest",
        start_s: round(previous.endT, 4),
        end_s: round(work.startT, 4),
        distance_m: round(at(work.startT) - at(previous.endT), 2),
        stroke_count: catchesIn(previous.endT, work.startT).length,
        step_index: null,
        start: null,
        split_times_s: null,
        catches: catchesIn(previous.endT, work.startT),
      });
    }
    const startX = at(work.startT);
    const distance = at(work.endT) - startX;
    const splits = [1, 2, 3]
      .map((q) => round(timeAtDistance(track, startX + (q * distance) / 4) - work.startT, 4))
      .concat(round(work.endT - work.startT, 4));
    const catches = catchesIn(work.startT, work.endT);
    sets.push({
      kind: "work",
      start_s: round(work.startT, 4),
      end_s: round(work.endT, 4),
      distance_m: round(distance, 2),
      stroke_count: catches.length,
      step_index: phases[work.phase].stepIndex,
      start: standing.get(work.phase) ? "standing" : "rolling",
      split_times_s: splits,
      catches,
    });
  });

  const content = renderSensors({
    rng,
    noisy,
    base,
    total,
    accel,
    speed,
    phaseOf,
    strokeOf,
    strokes,
    startT: works[0].startT,
    effortEndT: works[works.length - 1].endT,
    efforts: works.map((w) => ({ startT: w.startT, endT: w.endT })),
    lossScale: Math.max(1, total / IMU_HZ / 180),
    seed: options.seed,
  });
  return {
    content,
    truth: {
      vessel: options.vessel,
      noise: noisy ? "noisy" : "clean",
      seed: options.seed,
      steps: options.steps,
      rest_modes: restModes,
      turns_s: turns,
      sets,
    },
    distanceM: track,
  };
}

/** How far through a work piece, 0–1, by its own unit (distance or time). */
function pieceProgress(phase: Phase, elapsedS: number, coveredM: number): number {
  const value = phase.distanceM !== undefined ? (Number.isFinite(coveredM) ? coveredM / phase.distanceM : 0) : elapsedS / phase.durationS!;
  return Math.max(0, Math.min(1, value));
}
