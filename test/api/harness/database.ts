import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDb, type Db } from "@/server/db/client";

/**
 * The database of one test file. With DATABASE_URL (CI, and every engineer's
 * own database) the file gets a database of its own, cloned from a template
 * that is migrated and seeded once per content of the migrations and seeds
 * (Postgres copies it in well under a second); the route handlers reach it
 * through getDb(), as in production, because DATABASE_URL is pointed at it
 * before anything reads the configuration. Without DATABASE_URL, a PGlite
 * in a temporary folder of the file's own (DATA_DIR), migrated and seeded
 * per file, removed afterwards.
 */
export interface FileDatabase {
  /** Drops the file's database (Postgres) once every handle on it is closed. */
  drop(): Promise<void>;
}

/** Seeds a template: runs once per template, on a handle of its own. */
export type Seed = (db: Db) => Promise<void>;

const ADMIN_LOCK = 7_361_022;

/** The files under a repository-relative path (a file or a folder), in a stable order. */
function filesUnder(relative: string): string[] {
  const absolute = path.join(process.cwd(), relative);
  if (!fs.statSync(absolute).isDirectory()) return [relative];
  return fs
    .readdirSync(absolute)
    .sort()
    .flatMap((entry) => filesUnder(path.join(relative, entry)));
}

/** A name for the template: it changes whenever the migrations or the named seed sources (files or folders) change. */
function templateFingerprint(seedSources: string[]): string {
  const hash = createHash("sha256");
  for (const file of ["drizzle", ...seedSources].flatMap(filesUnder))
    hash.update(file).update(fs.readFileSync(path.join(process.cwd(), file)));
  return hash.digest("hex").slice(0, 10);
}

const withDatabase = (url: string, name: string) => {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
};

/**
 * Points this process's configuration at a fresh database for the file.
 * `name` tells templates apart (one per seed); `seedSources` are the files
 * whose content the seed depends on (repository-relative).
 */
export async function prepareFileDatabase(name: string, seed: Seed, seedSources: string[]): Promise<FileDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-api-test-"));
    process.env.DATA_DIR = dataDir;
    const { getDbHandle } = await import("@/server/db/client");
    await getDbHandle().migrate();
    await seed(getDbHandle().db);
    return { drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const base = decodeURIComponent(new URL(baseUrl).pathname.slice(1)).slice(0, 24);
  const template = `${base}_tpl_${name}_${templateFingerprint(seedSources)}`.slice(0, 63);
  const clone = `${base}_f${randomBytes(5).toString("hex")}`;
  // Before the seed runs: whatever it reads of the configuration names the file's own database.
  process.env.DATABASE_URL = withDatabase(baseUrl, clone);
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    // One file at a time builds the template or copies it (a copy needs the template without connections).
    await admin`select pg_advisory_lock(${ADMIN_LOCK})`;
    const [exists] = await admin`select 1 from pg_database where datname = ${template}`;
    if (!exists) await buildTemplate(admin, baseUrl, template, seed);
    await admin.unsafe(`create database "${clone}" template "${template}"`);
  } finally {
    await admin`select pg_advisory_unlock(${ADMIN_LOCK})`.catch(() => {});
    await admin.end({ timeout: 5 });
  }
  return {
    async drop() {
      const dropper = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists "${clone}" with (force)`);
      await dropper.end({ timeout: 5 });
    },
  };
}

async function buildTemplate(admin: postgres.Sql, baseUrl: string, template: string, seed: Seed) {
  // Templates of older migrations or seeds of the same name are of no further use.
  const prefix = template.slice(0, template.lastIndexOf("_") + 1);
  for (const { datname } of await admin`select datname from pg_database where starts_with(datname, ${prefix})`)
    await admin.unsafe(`drop database "${datname}" with (force)`);
  const building = `${template.slice(0, 55)}_build`;
  await admin.unsafe(`drop database if exists "${building}" with (force)`);
  await admin.unsafe(`create database "${building}"`);
  const handle = openDb({ databaseUrl: withDatabase(baseUrl, building), maxConnections: 4 });
  try {
    await handle.migrate();
    await seed(handle.db);
  } finally {
    await handle.close();
  }
  // Renamed only when complete: a failed seed never leaves a template behind.
  await admin.unsafe(`alter database "${building}" rename to "${template}"`);
}
