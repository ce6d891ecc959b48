/**
 * `npx tsx scripts/svc-output-hashes.ts [FILTER]`: a hash of every output of the `.svc` core on a
 * fixed set of simulated recordings, one line per output and a total line. A change meant to
 * make decoding or processing faster, not different (docs/processing.md "Cost linear in the
 * recording's length"), is run before and after and the two outputs diffed: any line that moves
 * is a figure that moved.
 *
 * Covered: every class, clean and noisy, distance and duration efforts, both speed fusions, IMU
 * losses, recordings of 5 to 120 minutes, the distance suggestion, trainings with a template,
 * by signal at three sensitivities and with corrected spans, and the decoded streams themselves.
 * Hashes are of the JSON with −0, NaN and ±Infinity marked (JSON would print them as 0 and null)
 * and typed arrays as their bytes: a change of one bit anywhere changes the line.
 */
import { createHash } from "node:crypto";
import { decodeSvc, encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { suggestFromDecoded } from "../server/svc/process/distance-suggestion";
import { processDecoded, type ProcessingOptions } from "../server/svc/process/process";
import { processTraining, type TrainingMeta } from "../server/svc/process/training";
import { simulateSession } from "../server/svc/simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../server/svc/simulator/training";
import type { DecodedSvc, SvcContent } from "../server/svc/types";
import { CORPUS_EFFORTS as EFFORTS, CORPUS_VESSELS as VESSELS } from "./bench/svc-corpus";

const keyring = loadKeyring({});
const filter = process.argv[2] ?? "";
const total = createHash("sha256");
let count = 0;

function exactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "number") {
      if (Object.is(v, -0)) return "<-0>";
      if (!Number.isFinite(v)) return `<${v}>`;
      return v;
    }
    if (ArrayBuffer.isView(v)) {
      const bytes = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      return `<${v.constructor.name} ${v.byteLength} ${createHash("sha256").update(bytes).digest("hex")}>`;
    }
    return v;
  });
}

function record(name: string, produce: () => unknown) {
  if (!name.includes(filter)) return;
  let text: string;
  let note = "";
  try {
    text = exactJson(produce());
  } catch (error) {
    text = `throws ${(error as Error).name}: ${(error as Error).message}`;
    note = ` (${text})`;
  }
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  total.update(`${name} ${hash}\n`);
  count++;
  console.log(`${name} ${hash}${note}`);
}

const decode = (content: SvcContent): DecodedSvc => decodeSvc(encodeSvc(content, keyring), keyring);

/** Lost IMU samples at the beginning, a 20 s loss inside the effort and a scatter of single losses. */
function withImuLosses(content: SvcContent): SvcContent {
  const present = content.imu.present.slice();
  present.fill(0, 0, 150);
  present.fill(0, 6000, 8000);
  for (let i = 9000; i < present.length; i += 997) present[i] = 0;
  return { ...content, imu: { ...content.imu, present } };
}

// Single efforts: every class, noise and effort kind; the window fusion and the suggestion on some.
let seed = 7000;
for (const vessel of VESSELS) {
  for (const noise of ["clean", "noisy"] as const) {
    for (const effort of EFFORTS) {
      const name = `session ${vessel} ${noise} ${effort.distanceM ?? ""}${effort.distanceM ? "m" : `${effort.durationMs! / 1000}s`}`;
      const s = seed++;
      if (![name, `${name} window`, `${name} suggestion`, `${name} decoded`].some((n) => n.includes(filter))) continue;
      const decoded = decode(simulateSession({ vessel, ...effort, seed: s, pace: "race", noise }).content);
      const meta = { vessel, ...effort };
      record(name, () => processDecoded(decoded, meta));
      if (effort.distanceM === 500) {
        record(`${name} window`, () => processDecoded(decoded, meta, { speedFusion: "window" } satisfies ProcessingOptions));
        record(`${name} suggestion`, () => suggestFromDecoded(decoded, vessel));
        record(`${name} decoded`, () => decoded);
      }
    }
  }
}

// IMU losses (the bridge and the variance clock's every case), clean and noisy.
for (const vessel of ["K1", "C2"] as const) {
  for (const noise of ["clean", "noisy"] as const) {
    const name = `imu-losses ${vessel} ${noise}`;
    if (!name.includes(filter)) continue;
    const decoded = decode(withImuLosses(simulateSession({ vessel, distanceM: 1000, seed: seed++, pace: "race", noise }).content));
    record(name, () => processDecoded(decoded, { vessel, distanceM: 1000 }));
    record(`${name} window`, () => processDecoded(decoded, { vessel, distanceM: 1000 }, { speedFusion: "window" }));
  }
}

// Long recordings, as bench:svc makes them, and a noisy hour of a canoe.
for (const [vessel, minutes, noise] of [
  ["K1", 5, "clean"],
  ["K1", 30, "clean"],
  ["K1", 120, "clean"],
  ["C2", 60, "noisy"],
  ["K4", 20, "noisy"],
] as const) {
  const name = `long ${vessel} ${minutes}min ${noise}`;
  if (!name.includes(filter)) continue;
  const effortMs = Math.max(30_000, minutes * 60_000 - 50_000);
  const decoded = decode(simulateSession({ vessel, durationMs: effortMs, seed: 4242 + minutes, pace: "training", noise }).content);
  record(name, () => processDecoded(decoded, { vessel, durationMs: effortMs }));
  record(`${name} distance`, () => processDecoded(decoded, { vessel, distanceM: 1000 }));
  record(`${name} decoded`, () => decoded);
}

// Trainings: with the template, by signal at three sensitivities, and with corrected spans.
for (const [vessel, spec, noise, warmupS, cooldownS] of [
  ["K1", "6x45s/60s", "noisy", undefined, undefined],
  ["K2", "4x1000m/200m", "clean", undefined, undefined],
  ["C1", "8x500m/120s", "noisy", undefined, undefined],
  ["C4", "5x90s/90s", "clean", undefined, undefined],
  ["K4", "3x2000m/300s", "noisy", undefined, undefined],
  ["K1", "10x1000m/180s", "noisy", 1200, 600],
] as const) {
  const name = `training ${vessel} ${spec} ${noise}`;
  if (!name.includes(filter)) continue;
  const steps = parseTrainingSpec(spec)!;
  const decoded = decode(simulateTraining({ vessel, steps, seed: seed++, noise, warmupS, cooldownS }).content);
  let detected: TrainingMeta["spans"] = [];
  record(`${name} template`, () => {
    const out = processTraining(decoded, { vessel, steps });
    detected = out.detected_sets;
    return out;
  });
  for (const sensitivity of [2, 5, 8]) record(`${name} signal ${sensitivity}`, () => processTraining(decoded, { vessel, sensitivity }));
  const moved = detected.map((s, k) => (k === 2 ? { ...s, end_s: s.end_s + 2.5 } : s));
  record(`${name} corrected`, () => processTraining(decoded, { vessel, steps, spans: moved }));
  record(`${name} undone`, () => processTraining(decoded, { vessel, steps, spans: detected }));
}

console.log(`total ${count} outputs ${total.digest("hex").slice(0, 16)}`);
