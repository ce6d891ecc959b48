import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { ZodError } from "zod";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { AppError } from "../errors";
import { EmbeddedWorker } from "../jobs/embedded-runner";
import { createKeyPair } from "../keys/key-pairs";
import {
  countResultsByCoreVersion,
  getActiveReprocessRun,
  getLatestReprocessRun,
  getReprocessRun,
  isActiveReprocessState,
  listReprocessFailures,
  startReprocessRun,
  stopReprocessRun,
  type ReprocessRunView,
} from "../reprocess/reprocess-runs";
import { createUser, ROLE_NAMES, type RoleName } from "../users/users";

/**
 * The operator command line: what automation needs without a browser.
 * Each command prints one JSON object on stdout; failures print
 * {"error": …} on stderr and exit with status 2.
 */
export class UsageError extends Error {}

const USAGE = `usage:
  admin user create --email E --password P [--name N] [--role ${ROLE_NAMES.join("|")}] [--unlimited-externals]
  admin key create --email E --name N
  admin reprocess [--batch-size N] [--wait]
  admin reprocess status
  admin reprocess stop [--run N] [--reason TEXT]`;

export interface AdminOptions {
  /** Follows a run to its end (reprocess --wait); the default runs the function in this process with the embedded runner. */
  waitForRun?: (db: Db, runId: number) => Promise<void>;
  /** The database is a PGlite folder only this process has open. */
  exclusiveDatabase?: boolean;
}

export async function runAdminCommand(db: Db, argv: string[], options: AdminOptions = {}): Promise<unknown> {
  if (argv[0] === "reprocess") return reprocessCommand(db, argv.slice(1), options);
  const [area, action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      "unlimited-externals": { type: "boolean" },
    },
    strict: true,
  });
  if (area === "user" && action === "create") {
    if (!values.email || !values.password) throw new UsageError(USAGE);
    const role = (values.role ?? "coach") as RoleName;
    if (!ROLE_NAMES.includes(role)) throw new UsageError(`--role must be one of ${ROLE_NAMES.join(", ")}`);
    const user = await createUser(
      db,
      { email: values.email, password: values.password, name: values.name ?? values.email.split("@")[0] },
      { role, unlimitedExternals: values["unlimited-externals"] ?? false },
    );
    return { id: user.id, email: user.email, name: user.name, role: user.role, unlimited_externals: user.unlimitedExternals };
  }
  if (area === "key" && action === "create") {
    if (!values.email || !values.name) throw new UsageError(USAGE);
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, values.email.trim().toLowerCase()));
    if (!owner) throw new AppError("not_found", `no account with email ${values.email}`);
    const { keyPair, secretKey } = await createKeyPair(db, owner.id, { name: values.name });
    return { id: keyPair.id, name: keyPair.name, public_key: keyPair.publicKey, secret_key: secretKey };
  }
  throw new UsageError(USAGE);
}

/**
 * Starts a reprocessing run to the current core (docs/processing.md
 * "Reprocessing") and prints it; `--wait` follows it to its end and prints
 * the final counts; `status` prints the latest run (`stalled` when it has not
 * moved for a while) and its failures; `stop` ends the active run (or run
 * N, only if it is still active) so a new one can start.
 */
async function reprocessCommand(db: Db, args: string[], options: AdminOptions): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args,
    options: { "batch-size": { type: "string" }, wait: { type: "boolean" }, run: { type: "string" }, reason: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  const sub = positionals[0];
  if (positionals.length > 1 || (sub !== undefined && sub !== "status" && sub !== "stop")) throw new UsageError(USAGE);
  const stopOptions = values.run !== undefined || values.reason !== undefined;
  const startOptions = values["batch-size"] !== undefined || values.wait !== undefined;
  if ((sub === "stop" && startOptions) || (sub !== "stop" && stopOptions)) throw new UsageError(USAGE);
  if (sub === "stop") {
    let runId: number;
    if (values.run !== undefined) {
      if (!/^\d{1,10}$/.test(values.run)) throw new UsageError("--run must be a run id");
      runId = Number(values.run);
    } else {
      const active = await getActiveReprocessRun(db);
      if (!active) throw new AppError("conflict", "No reprocessing run is in progress");
      runId = active.id;
    }
    return runOutput(await stopReprocessRun(db, { userId: null, via: "cli" }, { runId, reason: values.reason }));
  }
  if (sub === "status") {
    const run = await getLatestReprocessRun(db);
    return {
      stored_results: await countResultsByCoreVersion(db),
      run: run && runOutput(run),
      failures: run ? failuresOutput(await listReprocessFailures(db, run.id)) : [],
    };
  }
  let batchSize: number | undefined;
  if (values["batch-size"] !== undefined) {
    if (!/^\d{1,4}$/.test(values["batch-size"])) throw new UsageError("--batch-size must be an integer from 1 to 1000");
    batchSize = Number(values["batch-size"]);
  }
  const run = await startReprocessRun(db, { requestedByUserId: null, via: "cli", batchSize });
  if (!values.wait) return runOutput(run);
  await (options.waitForRun ?? ((d, id) => waitWithEmbeddedWorker(d, id, options.exclusiveDatabase ?? false)))(db, run.id);
  const finished = await getReprocessRun(db, run.id);
  return { ...runOutput(finished), failures: failuresOutput(await listReprocessFailures(db, run.id)) };
}

function runOutput(run: ReprocessRunView) {
  return {
    id: run.id,
    state: run.state,
    target_core_version: run.targetCoreVersion,
    total: run.total,
    done: run.done,
    failed: run.failed,
    skipped: run.skipped,
    last_error: run.lastError,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    last_progress_at: run.lastProgressAt,
    stalled: run.stalled,
  };
}

const failuresOutput = (failures: { itemKind: string; itemId: number; error: string }[]) =>
  failures.map((f) => ({ item_kind: f.itemKind, item_id: f.itemId, error: f.error }));

/** With no app instance running (e.g. an embedded PGlite folder), this process works the run itself. */
async function waitWithEmbeddedWorker(db: Db, runId: number, exclusiveDatabase: boolean): Promise<void> {
  const worker = new EmbeddedWorker({
    db,
    functionIds: ["reprocess-stored-files"],
    exclusiveDatabase,
    logger: { info() {}, warn: console.warn, error: console.error },
  });
  await worker.start();
  try {
    for (;;) {
      const run = await getReprocessRun(db, runId);
      if (!isActiveReprocessState(run.state)) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await worker.stop();
  }
}

export function describeAdminError(error: unknown): string {
  if (error instanceof ZodError) return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  if (error instanceof Error) return error.message;
  return String(error);
}
