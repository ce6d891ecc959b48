/**
 * Pure playback arithmetic of the replay player (docs/replay.md "Player"):
 * schema-1 frames decoded once into typed arrays, interpolated at any time,
 * and the paddle pose derived from `paddle_phase`. No three.js, no DOM.
 */

export const REPLAY_HZ = 30;
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8] as const;
export type ModelClass = "K1" | "K2" | "K4" | "C1" | "C2" | "C4";

/** What the player reads from an artifact; anything else in it is ignored. */
export interface ArtifactJson {
  schema: number;
  frame_count: number;
  model_class: string;
  quantization: { position_m: number; orientation_deg: number };
  frames: number[][];
}

/** A decoded track: metres and radians, one entry per 30 Hz frame. */
export interface LaneTrack {
  modelClass: ModelClass;
  frameCount: number;
  x: Float32Array;
  roll: Float32Array;
  pitch: Float32Array;
  yaw: Float32Array;
  phase: Float32Array;
  durationS: number;
  finishX: number;
}

const MODEL_CLASSES = new Set(["K1", "K2", "K4", "C1", "C2", "C4"]);

/** Decodes a schema-1 artifact; throws on anything the player cannot show. */
export function decodeTrack(json: ArtifactJson): LaneTrack {
  if (json?.schema !== 1 || !Array.isArray(json.frames) || json.frames.length === 0) throw new Error("not a schema-1 replay artifact");
  if (!MODEL_CLASSES.has(json.model_class)) throw new Error(`unknown boat class ${json.model_class}`);
  const n = json.frames.length;
  const q = json.quantization;
  const deg = (q.orientation_deg * Math.PI) / 180;
  const track: LaneTrack = {
    modelClass: json.model_class as ModelClass,
    frameCount: n,
    x: new Float32Array(n),
    roll: new Float32Array(n),
    pitch: new Float32Array(n),
    yaw: new Float32Array(n),
    phase: new Float32Array(n),
    durationS: (n - 1) / REPLAY_HZ,
    finishX: 0,
  };
  for (let i = 0; i < n; i++) {
    const f = json.frames[i];
    track.x[i] = f[0] * q.position_m;
    track.roll[i] = f[3] * deg;
    track.pitch[i] = f[4] * deg;
    track.yaw[i] = f[5] * deg;
    track.phase[i] = f[6];
  }
  track.finishX = track.x[n - 1];
  return track;
}

export interface Pose {
  x: number;
  roll: number;
  pitch: number;
  yaw: number;
  /** 0–1 canoe; 0–2 kayak (0–1 left blade, 1–2 right blade). */
  phase: number;
}

/** Phase wraps (0.99 → 0.0 at a catch, or 1.99 → 0.0): interpolate forward through the wrap. */
function lerpPhase(a: number, b: number, t: number, period: number): number {
  if (b >= a) return a + (b - a) * t;
  // A new stroke began between the frames: keep moving forward.
  const span = period - a + b;
  if (span > period * 0.6) return t < 0.5 ? a : b;
  const v = a + span * t;
  return v >= period ? v - period : v;
}

/** The pose at `timeS` seconds after the start, linearly interpolated between 30 Hz frames; held at the end. */
export function poseAt(track: LaneTrack, timeS: number): Pose {
  const f = Math.max(0, Math.min(track.frameCount - 1, timeS * REPLAY_HZ));
  const i = Math.floor(f);
  const j = Math.min(track.frameCount - 1, i + 1);
  const t = f - i;
  const lerp = (a: Float32Array) => a[i] + (a[j] - a[i]) * t;
  const period = track.modelClass.startsWith("K") ? 2 : 1;
  return {
    x: lerp(track.x),
    roll: lerp(track.roll),
    pitch: lerp(track.pitch),
    yaw: lerp(track.yaw),
    phase: lerpPhase(track.phase[i], track.phase[j], t, period),
  };
}

/** Fraction of a stroke cycle the blade is in the water (catch to exit). */
export const DRIVE_FRACTION = 0.6;

/**
 * The paddle's orientation for a phase, as angles about the paddler:
 * `sweep` about the vertical (positive = blade forward, toward the bow),
 * `tilt` about the boat's long axis (positive = left blade down), and
 * `depth` 0 (out of the water) to 1 (buried).
 * Kayak: the shaft tilts to the working side; during recovery it rolls over
 * to the other side for the next stroke. Canoe: one side, the blade drives
 * back and returns forward in the air.
 */
export function paddlePose(phase: number, kind: "kayak" | "canoe", canoeSide: 1 | -1 = 1): { sweep: number; tilt: number; depth: number } {
  const side = kind === "kayak" ? (phase < 1 ? 1 : -1) : canoeSide;
  const t = phase - Math.floor(phase);
  const maxSweep = (50 * Math.PI) / 180;
  const maxTilt = (38 * Math.PI) / 180;
  if (t < DRIVE_FRACTION) {
    const d = t / DRIVE_FRACTION;
    return { sweep: maxSweep * (1 - 2 * d), tilt: side * maxTilt, depth: Math.sin(Math.PI * Math.min(1, d * 1.2)) };
  }
  const r = (t - DRIVE_FRACTION) / (1 - DRIVE_FRACTION);
  const ease = 0.5 - 0.5 * Math.cos(Math.PI * r);
  // Kayak: roll over to the other side; canoe: lift the blade and bring it forward on the same side.
  const tilt = kind === "kayak" ? side * maxTilt * (1 - 2 * ease) : side * maxTilt * (0.55 + 0.45 * Math.abs(1 - 2 * ease));
  return { sweep: -maxSweep + 2 * maxSweep * ease, tilt, depth: 0 };
}

/** "1:23.4" for a time in seconds. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest.toFixed(1).padStart(4, "0")}`;
}
