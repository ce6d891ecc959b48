import { randomBytes } from "node:crypto";
import os from "node:os";
import { inngestFunctions } from "../../inngest";
import { getDbHandle, localDb, type Db, type DbHandle } from "../db/client";
import { defaultRetryBackoff, type RetryBackoff } from "./durations";
import { sweepExpiredState } from "./housekeeping";
import { assertEmbeddable, type JobFunction } from "./job-functions";
import { processClaimedRun, type RunContext } from "./process-run";
import { relayOutbox, type OutboxSink } from "../events/outbox";
import { listenForQueuedRuns, onLocalRunsQueued } from "../events/run-notifications";
import { embeddedOutboxSink } from "./queue-runs";
import { claimNextRun, deleteFinishedRuns, nextDueTime, requeueOrphanedRuns, type ClaimedRun } from "./run-store";

/**
 * The embedded job runner: executes the app's Inngest functions in-process
 * when no Inngest server is configured, with all state in the database
 * (docs/jobs.md). Any number of workers, in one process or in several
 * instances on one Postgres, share the queue safely: each run is leased to
 * one worker at a time.
 */

export interface EmbeddedWorkerOptions {
  db: Db;
  /** Functions this worker runs; default: the app's registry (inngest/index.ts). Tests pass their own. */
  functions?: readonly JobFunction[];
  /** Runs only these of the app's functions (the admin CLI works one reprocessing run). */
  functionIds?: readonly string[];
  /** Identifies the worker in leases; default: host, pid and a random suffix. */
  workerId?: string;
  /** How long a claim holds without renewal; a dead worker's run is taken over after this. */
  leaseMs?: number;
  /** Slow safety poll for runs whose notification was missed. */
  pollIntervalMs?: number;
  /**
   * Runs worked on at once by this worker, for functions without a limit of their own. A function
   * whose Inngest `concurrency` has a limit without `key` gets its own pool of that many slots
   * (webhook dispatch: I/O-bound, one run per endpoint), so it neither waits for nor blocks the others.
   */
  concurrency?: number;
  retryBackoff?: RetryBackoff;
  /**
   * The database can only be open in this process (a PGlite folder): runs
   * still marked running at start are orphans of a dead process and are
   * queued again at once. Never set it for a database other processes share.
   */
  exclusiveDatabase?: boolean;
  logger?: Pick<Console, "info" | "warn" | "error">;
}

const DEFAULTS = { leaseMs: 60_000, pollIntervalMs: 15_000, concurrency: 2 };
const HOUR_MS = 3_600_000;
/** Finished runs stay inspectable this long. */
const KEEP_COMPLETED_MS = 7 * 24 * HOUR_MS;
const KEEP_FAILED_MS = 30 * 24 * HOUR_MS;

function appFunctions(ids: readonly string[] | undefined): readonly JobFunction[] {
  if (!ids) return inngestFunctions;
  const unknown = ids.filter((id) => !inngestFunctions.some((fn) => fn.id() === id));
  if (unknown.length) throw new Error(`No background function with id ${unknown.join(", ")} (inngest/index.ts).`);
  return inngestFunctions.filter((fn) => ids.includes(fn.id()));
}

/**
 * Relays the app's committed events into queued runs of its functions, as
 * the worker does before it claims (for tests that look at the runs an
 * event started, without working them).
 */
export function relayAppEvents(db: Db): Promise<number> {
  return relayOutbox(db, embeddedOutboxSink(inngestFunctions));
}

export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

export class EmbeddedWorker {
  readonly workerId: string;
  private readonly db: Db;
  private readonly functionsById: Map<string, JobFunction>;
  private readonly options: Required<Pick<EmbeddedWorkerOptions, "leaseMs" | "pollIntervalMs" | "concurrency" | "exclusiveDatabase">>;
  private readonly context: RunContext;
  private readonly logger: Pick<Console, "info" | "warn" | "error">;
  private started = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Slot pools: the shared one (`concurrency`) and one per function with a function-level limit. */
  private readonly pools: { functionIds: string[]; limit: number; inFlight: Set<Promise<void>> }[];
  private ticking = false;
  private tickRequested = false;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private stopLocalWakeups: (() => void) | undefined;
  private lastHousekeeping = 0;
  /** Relays the outbox into job_runs of the app's functions (whichever functions this worker itself runs). */
  private readonly outboxSink: OutboxSink;

  constructor(options: EmbeddedWorkerOptions) {
    const functions = options.functions ?? appFunctions(options.functionIds);
    this.outboxSink = embeddedOutboxSink(inngestFunctions);
    functions.forEach(assertEmbeddable);
    this.db = options.db;
    this.functionsById = new Map(functions.map((fn) => [fn.id(), fn]));
    this.workerId = options.workerId ?? newWorkerId();
    this.options = {
      leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      concurrency: options.concurrency ?? DEFAULTS.concurrency,
      exclusiveDatabase: options.exclusiveDatabase ?? false,
    };
    this.logger = options.logger ?? console;
    const shared = { functionIds: [] as string[], limit: this.options.concurrency, inFlight: new Set<Promise<void>>() };
    this.pools = [shared];
    for (const fn of functions) {
      const limit = functionLevelLimit(fn);
      if (limit) this.pools.push({ functionIds: [fn.id()], limit, inFlight: new Set() });
      else shared.functionIds.push(fn.id());
    }
    this.context = {
      db: this.db,
      workerId: this.workerId,
      leaseMs: this.options.leaseMs,
      retryBackoff: options.retryBackoff ?? defaultRetryBackoff,
      logger: this.logger,
    };
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.options.exclusiveDatabase) {
      const requeued = await requeueOrphanedRuns(this.db);
      if (requeued) this.logger.info(`jobs: resumed ${requeued} run(s) interrupted by the last shutdown`);
    }
    this.stopLocalWakeups = onLocalRunsQueued(() => this.wake());
    try {
      this.stopListening = await listenForQueuedRuns(this.db, () => this.wake());
    } catch (error) {
      this.logger.warn("jobs: cannot LISTEN for new runs; relying on polling", error);
    }
    this.wake();
  }

  /** Stops claiming runs and waits (up to `timeoutMs`) for the runs in progress to reach a stopping point. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    clearTimeout(this.timer);
    this.stopLocalWakeups?.();
    await this.stopListening?.().catch(() => {});
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => {
        timeout = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timeout);
  }

  /** Looks for runnable runs now (new events, a run finished, the timer). */
  wake(): void {
    if (!this.started) return;
    void this.tick();
  }

  private async tick(): Promise<void> {
    // One claim loop at a time; a wake-up during it makes it go round again.
    if (this.ticking) {
      this.tickRequested = true;
      return;
    }
    this.ticking = true;
    clearTimeout(this.timer);
    let delay = this.options.pollIntervalMs;
    try {
      do {
        this.tickRequested = false;
        await relayOutbox(this.db, this.outboxSink);
        for (const pool of this.pools) {
          while (this.started && pool.inFlight.size < pool.limit) {
            const run = await claimNextRun(this.db, {
              workerId: this.workerId,
              functionIds: pool.functionIds,
              leaseMs: this.options.leaseMs,
            });
            if (!run) break;
            this.track(this.process(run), pool.inFlight);
          }
        }
      } while (this.tickRequested && this.started);
      await this.housekeeping();
      delay = await this.delayUntilNextDue();
      // A wake-up that came after the loop (an outbox row committed meanwhile, which nextDueTime cannot see) goes round again soon.
      if (this.tickRequested) delay = 10;
    } catch (error) {
      this.logger.error("jobs: the worker could not claim runs; trying again later", error);
    } finally {
      this.ticking = false;
    }
    if (this.started) {
      this.timer = setTimeout(() => this.wake(), delay);
      this.timer.unref();
    }
  }

  private process(run: ClaimedRun): Promise<void> {
    return processClaimedRun(run, this.functionsById.get(run.functionId)!, this.context);
  }

  private track(work: Promise<void>, pool: Set<Promise<void>>): void {
    this.inFlight.add(work);
    pool.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      pool.delete(work);
      this.wake();
    });
  }

  /** Sleeps until the next retry, wake-up or lease expiry is due, but never longer than the poll interval. */
  private async delayUntilNextDue(): Promise<number> {
    const due = await nextDueTime(this.db, [...this.functionsById.keys()], { includeLeased: true });
    if (!due) return this.options.pollIntervalMs;
    return Math.min(this.options.pollIntervalMs, Math.max(10, due.getTime() - Date.now() + 10));
  }

  private async housekeeping(): Promise<void> {
    if (Date.now() - this.lastHousekeeping < HOUR_MS) return;
    this.lastHousekeeping = Date.now();
    await deleteFinishedRuns(this.db, {
      completedBefore: new Date(Date.now() - KEEP_COMPLETED_MS),
      failedBefore: new Date(Date.now() - KEEP_FAILED_MS),
    });
    await sweepExpiredState(this.db);
  }
}

/** A function's own limit: Inngest `concurrency` as a number, or its entry without `key` (a keyed limit is per key, not per function). */
function functionLevelLimit(fn: JobFunction): number | undefined {
  const option = fn.opts.concurrency as number | { limit: number; key?: string } | { limit: number; key?: string }[] | undefined;
  if (typeof option === "number") return option;
  const entries = Array.isArray(option) ? option : option ? [option] : [];
  return entries.find((entry) => !entry.key)?.limit;
}

// The app's worker lives on globalThis: Next.js may load this module in more
// than one bundle, and one process needs one worker.
const workerKey = Symbol.for("svc-results.embedded-worker");
type GlobalWithWorker = typeof globalThis & { [workerKey]?: EmbeddedWorker };

/**
 * Starts the app's worker on the app's database (server/startup.ts calls
 * this when no Inngest server is configured). With PGlite the database
 * belongs to this process alone, so interrupted runs resume immediately.
 */
export async function startEmbeddedWorker(
  options: { handle?: DbHandle } & Omit<EmbeddedWorkerOptions, "db"> = {},
): Promise<EmbeddedWorker> {
  const g = globalThis as GlobalWithWorker;
  if (g[workerKey]) return g[workerKey];
  const { handle = getDbHandle(), ...rest } = options;
  const worker = new EmbeddedWorker({ exclusiveDatabase: handle.kind === "pglite", ...rest, db: localDb(handle) });
  g[workerKey] = worker;
  await worker.start();
  return worker;
}

export async function stopEmbeddedWorker(timeoutMs?: number): Promise<void> {
  const g = globalThis as GlobalWithWorker;
  const worker = g[workerKey];
  g[workerKey] = undefined;
  await worker?.stop(timeoutMs);
}

export interface DrainOptions {
  functions?: readonly JobFunction[];
  retryBackoff?: RetryBackoff;
  leaseMs?: number;
  /** Wait at most this long for runs that become due later (retries, sleeps); default 60 s. */
  maxWaitMs?: number;
  logger?: Pick<Console, "info" | "warn" | "error">;
}

/**
 * Test hook: works runs on `db` in this call until none is runnable, waiting
 * for retries and sleeps due within `maxWaitMs`. Runs leased by another live
 * worker are left to it. Returns the number of claims it worked on.
 */
export async function drainEmbeddedRuns(db: Db, options: DrainOptions = {}): Promise<number> {
  const functions = options.functions ?? inngestFunctions;
  functions.forEach(assertEmbeddable);
  const functionsById = new Map(functions.map((fn) => [fn.id(), fn]));
  const functionIds = [...functionsById.keys()];
  const context: RunContext = {
    db,
    workerId: `drain:${newWorkerId()}`,
    leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
    retryBackoff: options.retryBackoff ?? defaultRetryBackoff,
    logger: options.logger ?? console,
  };
  const deadline = Date.now() + (options.maxWaitMs ?? 60_000);
  // Events the app sent are in the outbox until a relay queues their runs, for all the app's functions
  // (tests' own functions are queued directly by sendEvent).
  const outboxSink = embeddedOutboxSink(inngestFunctions);
  let claims = 0;
  for (;;) {
    await relayOutbox(db, outboxSink);
    const run = await claimNextRun(db, { workerId: context.workerId, functionIds, leaseMs: context.leaseMs });
    if (run) {
      claims += 1;
      await processClaimedRun(run, functionsById.get(run.functionId)!, context);
      continue;
    }
    const due = await nextDueTime(db, functionIds, { includeLeased: false });
    if (!due || due.getTime() > deadline) return claims;
    await new Promise((resolve) => setTimeout(resolve, Math.max(5, due.getTime() - Date.now() + 5)));
  }
}
