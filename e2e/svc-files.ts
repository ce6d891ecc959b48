import fs from "node:fs";
import path from "node:path";
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { simulateSession, type SimulateOptions } from "../server/svc/simulator/simulate";

/** A simulated session sealed with the development key, as a unit would write it. */
export function simulatedSvc(options: SimulateOptions): Buffer {
  return Buffer.from(encodeSvc(simulateSession(options).content, loadKeyring({})));
}

export const FIXTURES = path.join(import.meta.dirname, "../test/fixtures/svc");
export const badFiles = () => fs.readdirSync(path.join(FIXTURES, "bad")).filter((f) => f.endsWith(".svc"));

/** A simulated interval practice ("4x250m/60s", "10x60s/60s") sealed with the development key, with its truth. */
export { simulatedTrainingFile } from "../test/support/trainings";

/** A simulated session recorded at `startUnixMs` (the unit's clock), for views that read recent weeks (home, calendar). */
export function datedSvc(options: SimulateOptions, startUnixMs: number): Buffer {
  const { content } = simulateSession(options);
  return Buffer.from(encodeSvc({ ...content, header: { ...content.header, startUnixMs } }, loadKeyring({})));
}
