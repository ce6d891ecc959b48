/**
 * `npm run bench:upload`: POST /results of a 5-minute K1 session end to end
 * on one instance (median server time, and how much of it is the .svc core),
 * and GET /results/{id}/pdf (median time per report). Needs a built app and
 * the local Postgres; creates its own database.
 */
import { createAthlete } from "../../server/athletes/athletes";
import { openDb } from "../../server/db/client";
import { createKeyPair } from "../../server/keys/key-pairs";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { processSvc } from "../../server/svc/process/process";
import { simulateSession } from "../../server/svc/simulator/simulate";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { benchPort, createFreshDatabase, fmt, percentile, startServer, stopServer } from "./bench-kit";

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 30);
const PORT = benchPort(3912);

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_upload");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const user = await createUser(handle.db, { name: "Bench", email: "upload@bench.example", password: "bench password 1" });
  const track = await createTrack(handle.db, user.id, { name: "Bench basin" });
  const athlete = await createAthlete(handle.db, user.id, { name: "Bench", subscriptionActiveUntil: "2099-12-31" });
  const { keyPair, secretKey } = await createKeyPair(handle.db, user.id, { name: "bench" });
  await handle.close();

  const keyring = loadKeyring({});
  // A 5-minute recording: a 4-minute effort plus the simulator's lead-in and cool-down.
  const recording = (seed: number) =>
    Buffer.from(encodeSvc(simulateSession({ vessel: "K1", durationMs: 240_000, seed, pace: "training" }).content, keyring));
  const bytes = recording(5);
  // One owner cannot upload the same file twice (409): each upload sends its own recording of the same length.
  const uploadFiles = Array.from({ length: UPLOADS + 3 }, (_, i) => recording(1000 + i));
  const meta = { vessel: "K1" as const, durationMs: 240_000 };
  const coreTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    processSvc(bytes, meta, keyring);
    coreTimes.push(performance.now() - t0);
  }

  const server = await startServer(databaseUrl, PORT);
  const headers = { authorization: `Bearer ${keyPair.publicKey}.${secretKey}`, "x-forwarded-proto": "https" };
  const metadata = JSON.stringify({
    duration_ms: 240_000,
    vessel_id: 1,
    track_id: track.id,
    category_id: 1,
    pace_id: 2,
    athletes: [athlete.id],
  });
  const uploadTimes: number[] = [];
  const pdfTimes: number[] = [];
  let lastId = 0;
  try {
    for (let i = 0; i < UPLOADS + 3; i++) {
      const form = new FormData();
      form.append("metadata", metadata);
      form.append("file", new Blob([uploadFiles[i]]), "session.svc");
      const t0 = performance.now();
      const response = await fetch(`http://127.0.0.1:${PORT}/api/v1/results`, { method: "POST", headers, body: form });
      const elapsed = performance.now() - t0;
      if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
      lastId = (await response.json()).data.id;
      if (i >= 3) uploadTimes.push(elapsed); // the first requests warm the server up
    }
    for (let i = 0; i < 23; i++) {
      const t0 = performance.now();
      const response = await fetch(`http://127.0.0.1:${PORT}/api/v1/results/${lastId}/pdf`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`pdf: ${response.status}`);
      if (i >= 3) pdfTimes.push(performance.now() - t0);
    }
  } finally {
    await stopServer(server);
  }
  const sort = (v: number[]) => [...v].sort((a, b) => a - b);
  const upload50 = percentile(sort(uploadTimes), 50);
  const core50 = percentile(sort(coreTimes), 50);
  console.log(`
| measure | median | p95 |
|---|---|---|
| POST /results, 5-minute K1 file (${(bytes.length / 1024).toFixed(0)} KiB), ${UPLOADS} uploads | ${fmt(upload50)} ms | ${fmt(percentile(sort(uploadTimes), 95))} ms |
| of which the .svc core (decode + process, same file, in-process) | ${fmt(core50)} ms (${fmt((100 * core50) / upload50, 0)} %) | ${fmt(percentile(sort(coreTimes), 95))} ms |
| GET /results/{id}/pdf (4 splits, English) | ${fmt(percentile(sort(pdfTimes), 50))} ms | ${fmt(percentile(sort(pdfTimes), 95))} ms |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
