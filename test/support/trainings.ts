import type { Db } from "../../server/db/client";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { parseTrainingSpec, simulateTraining, type TrainingTruth } from "../../server/svc/simulator/training";
import type { Keyring, VesselType } from "../../server/svc/types";
import type { SessionUser } from "../../server/users/users";
import { vesselIdOf } from "../../server/demo/vessel-ids";
import { createTrainingFromUpload, type TrainingUploadInput } from "../../server/trainings/create-training";
import { processStoredTraining, type ProcessOutcome } from "../../server/trainings/process-training";

export { vesselIdOf };

/**
 * For tests: a simulated interval practice as the bytes
 * of a `.svc` file, with its ground truth. `spec` is the simulator's
 * shorthand ("6x500m/120s", "10x60s/60s").
 */
export function simulatedTrainingFile(options: {
  spec: string;
  vessel?: VesselType;
  seed?: number;
  noise?: "clean" | "noisy";
  warmupS?: number;
  cooldownS?: number;
  keyring?: Keyring;
}): {
  bytes: Buffer;
  truth: TrainingTruth;
} {
  const steps = parseTrainingSpec(options.spec);
  if (!steps) throw new Error(`not a training spec: ${options.spec}`);
  const simulation = simulateTraining({
    vessel: options.vessel ?? "K1",
    steps,
    seed: options.seed ?? 7,
    noise: options.noise,
    warmupS: options.warmupS ?? 60,
    cooldownS: options.cooldownS ?? 30,
  });
  return { bytes: Buffer.from(encodeSvc(simulation.content, options.keyring ?? loadKeyring({}))), truth: simulation.truth };
}

/**
 * A processed training for `user` from a simulated file: uploaded through
 * createTrainingFromUpload and processed at once with processStoredTraining
 * (the queued job run stays; running it again only rewrites the same figures).
 */
export async function createProcessedTraining(
  db: Db,
  user: SessionUser,
  options: { spec?: string; vessel?: VesselType; seed?: number; noise?: "clean" | "noisy"; keyring?: Keyring } & Partial<
    Omit<TrainingUploadInput, "user" | "file" | "vesselId">
  > = {},
): Promise<{ id: number; outcome: ProcessOutcome; truth: TrainingTruth }> {
  const { spec = "4x250m/60s", vessel = "K1", seed, noise, keyring = loadKeyring({}), ...upload } = options;
  const file = simulatedTrainingFile({ spec, vessel, seed: seed ?? Math.floor(Math.random() * 1e9), noise, keyring });
  const created = await createTrainingFromUpload(db, {
    user,
    createdVia: "api",
    ...upload,
    vesselId: await vesselIdOf(db, vessel),
    file: { filename: `${spec.replace(/[^A-Za-z0-9]+/g, "-")}.svc`, bytes: file.bytes },
  });
  const outcome = await processStoredTraining(db, created.id, { keyring });
  return { id: created.id, outcome, truth: file.truth };
}
