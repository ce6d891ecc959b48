/**
 * `npm run bench:demo-seed`: how long the quickstart's demo season takes to
 * seed (docs/benchmarks.md "Quickstart with the demo season"). Migrates a
 * fresh in-memory PGlite (or the Postgres at DATABASE_URL, under accounts of
 * its own) and times `seedDemo`, as the quickstart runs it.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { openDb } from "../../server/db/client";
import { planDemoSeason } from "../../server/demo/demo-season";
import { seedDemo } from "../../server/demo/seed-demo";

const started = Date.now();
const handle = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: "memory://", maxConnections: 4 });
await handle.migrate();
const migrated = Date.now();
const id = randomUUID().slice(0, 8);
const account = (role: string) => ({ email: `bench-${role}-${id}@bench.example`, password: "demo-paddler-2026", name: `Bench ${role}` });
await seedDemo(handle.db, { accounts: { coach: account("coach"), athlete: account("athlete"), operator: account("operator") } });
const seeded = Date.now();
await handle.close();
const plan = planDemoSeason(new Date());
console.log(
  JSON.stringify({
    database: handle.kind,
    sessions: plan.sessions.length,
    trainings: plan.trainings.length,
    migrateMs: migrated - started,
    seedMs: seeded - migrated,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
  }),
);
