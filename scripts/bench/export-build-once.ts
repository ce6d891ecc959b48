/**
 * One export format built in a process of its own (for bench:exports): a cold
 * build, then three timed builds; prints one JSON line with wall and CPU
 * times, the file size, and the process's peak RSS (resourceUsage().maxRSS)
 * before any build, after the first and at the end.
 */
import { openDb } from "../../server/db/client";
import { buildExport, type ExportFormat } from "../../server/exports/builders/index";
import { loadExportModel } from "../../server/exports/export-source";

async function main() {
  const [sessionId, userId, format] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4] as ExportFormat];
  const handle = openDb({ databaseUrl: process.env.DATABASE_URL });
  const db = handle.db;
  const source = { kind: "session" as const, sessionId };
  const viewer = { userId };
  const options = { format, athlete: 1 as const, splits: 20, lang: "en" as const, mode: "full" as const, healthAllowed: true };
  const { strokes } = await loadExportModel(db, source, viewer, { athlete: 1, splits: 20, mode: "full", healthAllowed: true });
  const baseRssMb = process.resourceUsage().maxRSS / 1024;
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  const file = await buildExport(db, source, viewer, options);
  const coldMs = performance.now() - t0;
  const coldCpuMs = cpuMs(c0);
  const firstBuildRssMb = process.resourceUsage().maxRSS / 1024;
  const warm: number[] = [];
  const warmCpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    c0 = process.cpuUsage();
    await buildExport(db, source, viewer, options);
    warm.push(performance.now() - t0);
    warmCpu.push(cpuMs(c0));
  }
  warm.sort((a, b) => a - b);
  warmCpu.sort((a, b) => a - b);
  await handle.close();
  console.log(
    JSON.stringify({
      coldMs,
      coldCpuMs,
      warmMs: warm[1],
      warmCpuMs: warmCpu[1],
      firstBuildRssMb,
      bytes: file.bytes.length,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      baseRssMb,
      strokes: strokes.length,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
