/**
 * `npm run bench:exports`: time and size of every export format for a
 * 5-minute and a 60-minute session, and the peak RSS of the process that
 * builds it (the 60-minute full PDF must stay under 5 s and 200 MB).
 *
 * Sessions are made with the simulator and stored through the real upload
 * (uploadResult). Uploads accept efforts of at most 5 minutes, so the
 * 60-minute session is a 5-minute upload whose processed data (strokes,
 * derived track, summary) is then replaced by a 60-minute simulation
 * processed by the same core. Each format is built in a fresh child process
 * (scripts/bench/export-build-once.ts): one cold build, then timed warm builds.
 * That process runs bundled JavaScript with plain node, as the production
 * server runs Next.js' compiled bundle: under tsx the same process starts
 * some 90 MB heavier (tsx, its esbuild service, every module compiled at
 * load), which is the loader's cost, not the build's.
 * Uses DATABASE_URL when set, else a fresh local Postgres database.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { eq } from "drizzle-orm";
import { createAthlete } from "../../server/athletes/athletes";
import { openDb, type Db } from "../../server/db/client";
import { athletes, resultDerived, results, resultStrokes } from "../../server/db/schema";
import { EXPORT_FORMATS } from "../../server/exports/builders/index";
import { uploadResult } from "../../server/results/upload-result";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { processSvc } from "../../server/svc/process/process";
import { simulateSession } from "../../server/svc/simulator/simulate";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { createFreshDatabase } from "./bench-kit";
import { insertStrokeRows } from "../../server/results/stroke-rows";

const keyring = loadKeyring({});

async function main() {
  const databaseUrl = process.env.DATABASE_URL || (await createFreshDatabase("svc_bench_exports"));
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const db = handle.db;
  const user = await createUser(db, { name: "Bench", email: `exports-${Date.now()}@bench.example`, password: "bench password 1" });
  const athlete = await createAthlete(db, user.id, { name: "Bench", surname: "Paddler", subscriptionActiveUntil: "2099-12-31" });
  await db.update(athletes).set({ userId: user.id }).where(eq(athletes.id, athlete.id));
  const track = await createTrack(db, user.id, { name: "Bench basin" });

  // Different seeds: the same file uploaded twice by one person is refused (a retry, not a second session).
  const upload = async (durationMs: number, seed: number) => {
    const file = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", durationMs, seed, pace: "training" }).content, keyring));
    const metadata = JSON.stringify({
      duration_ms: durationMs,
      vessel_id: 1,
      track_id: track.id,
      category_id: 1,
      pace_id: 2,
      athletes: [athlete.id],
    });
    return (
      await uploadResult(
        db,
        { user, createdVia: "web", keyPairId: null, file: { filename: "bench.svc", bytes: file }, metadata },
        { keyring },
      )
    ).id;
  };
  const fiveMinutes = await upload(300_000, 9);
  const sixtyMinutes = await upload(300_000, 11);
  await replaceWithLongEffort(db, sixtyMinutes, 3_600_000);
  await handle.close();

  // One bundle per run, format modules split out so each loads only when its format is built (as in production).
  // Inside the repository (bench-out/ is ignored by git) so the bundle's package imports resolve to node_modules.
  mkdirSync("bench-out", { recursive: true });
  const outdir = mkdtempSync(path.join("bench-out", "exports-"));
  await build({
    entryPoints: ["scripts/bench/export-build-once.ts"],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    packages: "external",
    jsx: "automatic",
    outdir,
    logLevel: "warning",
  });
  const rows: string[] = [];
  // BENCH_FORMATS=pdf-full (comma-separated) builds only those formats.
  const formats = process.env.BENCH_FORMATS
    ? EXPORT_FORMATS.filter((f) => process.env.BENCH_FORMATS!.split(",").includes(f))
    : EXPORT_FORMATS;
  for (const [label, sessionId] of [
    ["5 min", fiveMinutes],
    ["60 min", sixtyMinutes],
  ] as const) {
    for (const format of formats) {
      const out = execFileSync(process.execPath, [path.join(outdir, "export-build-once.js"), String(sessionId), String(user.id), format], {
        env: { ...process.env, DATABASE_URL: databaseUrl },
        encoding: "utf8",
      });
      const r = JSON.parse(out.trim().split("\n").at(-1)!) as {
        coldMs: number;
        coldCpuMs: number;
        warmMs: number;
        warmCpuMs: number;
        bytes: number;
        maxRssMb: number;
        firstBuildRssMb: number;
        baseRssMb: number;
        strokes: number;
      };
      rows.push(
        `| ${label} (${r.strokes} strokes) | ${format} | ${ms(r.coldMs)} (${ms(r.coldCpuMs)} CPU) | ${ms(r.warmMs)} (${ms(r.warmCpuMs)} CPU) | ${formatBytes(r.bytes)} | ${mb(r.baseRssMb)} → ${mb(r.firstBuildRssMb)} → ${mb(r.maxRssMb)} |`,
      );
      console.error(rows.at(-1));
    }
  }
  rmSync(outdir, { recursive: true, force: true });
  console.log(
    `\n| session | format | first build, wall (CPU) | median of 3 more, wall (CPU) | file size | peak RSS: before building → after the first build → after all four |\n|---|---|---|---|---|---|\n${rows.join("\n")}`,
  );
}

/** Replaces a stored effort's processed data with a simulated effort of `durationMs`, processed by the same core as uploads. */
async function replaceWithLongEffort(db: Db, resultId: number, durationMs: number) {
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", durationMs, seed: 10, pace: "training" }).content, keyring));
  const processed = processSvc(bytes, { vessel: "K1", durationMs }, keyring);
  await db.transaction(async (tx) => {
    await tx
      .update(results)
      .set({ distanceM: processed.effort.dist, durationMs: processed.effort.duration_ms, targetDurationMs: durationMs })
      .where(eq(results.id, resultId));
    await tx.delete(resultStrokes).where(eq(resultStrokes.resultId, resultId));
    await insertStrokeRows(tx as unknown as Db, resultId, processed.strokes);
    await tx
      .update(resultDerived)
      .set({
        effortStartS: processed.effort.start_s,
        effortEndS: processed.effort.end_s,
        summary: processed.summary,
        dataQuality: processed.data_quality,
        track: processed.track,
        heartRate: processed.heart_rate,
      })
      .where(eq(resultDerived.resultId, resultId));
  });
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const mb = (v: number) => `${v.toFixed(0)} MB`;
const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MiB` : `${(n / 1024).toFixed(0)} KiB`);

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
