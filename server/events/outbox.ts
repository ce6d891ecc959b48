import { PGlite } from "@electric-sql/pglite";
import { and, asc, inArray, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { eventOutbox } from "../db/schema";

/**
 * The transactional outbox, the only way events leave a transaction
 * (docs/jobs.md "Outbox"); the relay hands them to a real Inngest server or
 * to the embedded runner's queue. `sendEvent` writes a row through the caller's
 * database handle — inside its transaction, the row exists only if it
 * commits — and the relay sends committed rows to Inngest, then marks them
 * sent. A process that dies between the commit and the send loses nothing:
 * the row is still pending and the next relay pass (on any instance) sends
 * it. A crash after the send but before the mark sends it again with the
 * same event id, which Inngest deduplicates.
 */
const CHANNEL = "event_outbox_pending";
const BATCH = 100;
/** Sent rows are kept a day for inspection, then deleted. */
const KEEP_SENT_MS = 24 * 3600_000;

export interface OutboxEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
}

/**
 * Delivers a batch; throws when the receiver did not take it (the relay
 * retries later). `tx` is the relay's transaction, which marks the rows sent
 * when the sink returns: a sink writing to the same database (the embedded
 * runner's job_runs) writes through it, exactly once.
 */
export type OutboxSink = (events: OutboxEvent[], tx: Db) => Promise<void>;

export interface OutboxRelayOptions {
  pollIntervalMs?: number;
  logger?: Pick<Console, "error">;
  /**
   * Hourly sweeps this instance runs besides the relay (server/startup.ts
   * passes jobs/housekeeping's). Injected: the sweeps reach domain modules
   * that send events, which import this module.
   */
  housekeeping?: (db: Db) => Promise<void>;
}

/** Writes the event through `db` (the caller's transaction, when given) and wakes relays at commit. */
export async function enqueueOutboxEvent(db: Db, event: OutboxEvent): Promise<void> {
  await enqueueOutboxEvents(db, [event]);
}

/** Several events in one insert and one wake-up. */
export async function enqueueOutboxEvents(db: Db, events: OutboxEvent[]): Promise<void> {
  if (!events.length) return;
  await db
    .insert(eventOutbox)
    .values(events.map((event) => ({ eventId: event.id, name: event.name, data: event.data })))
    .onConflictDoNothing({ target: eventOutbox.eventId });
  await db.execute(sql`select pg_notify(${CHANNEL}, '')`);
}

/** Retry backoff of a batch that failed to send: 1 s, 2 s, 4 s … at most 5 min. */
const backoffMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** Math.min(attempts, 10));

/**
 * One relay pass: sends due pending rows in batches until none is left, and
 * returns how many were sent. Rows are locked (SKIP LOCKED) while they are
 * sent, so relays on several instances never send one row at once.
 */
export async function relayOutbox(db: Db, sink: OutboxSink, options: { now?: () => Date } = {}): Promise<number> {
  const now = options.now ?? (() => new Date());
  let sent = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          rowId: eventOutbox.id,
          id: eventOutbox.eventId,
          name: eventOutbox.name,
          data: eventOutbox.data,
          attempts: eventOutbox.attempts,
        })
        .from(eventOutbox)
        .where(and(isNull(eventOutbox.sentAt), lte(eventOutbox.nextAttemptAt, now())))
        .orderBy(asc(eventOutbox.id))
        .limit(BATCH)
        .for("update", { skipLocked: true });
      if (!rows.length) return { count: 0, failed: false };
      const ids = rows.map((row) => row.rowId);
      try {
        await sink(
          rows.map(({ id, name, data }) => ({ id, name, data })),
          tx,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await tx
          .update(eventOutbox)
          .set({
            attempts: sql`${eventOutbox.attempts} + 1`,
            lastError: message.slice(0, 500),
            nextAttemptAt: new Date(now().getTime() + backoffMs(rows[0].attempts)),
          })
          .where(inArray(eventOutbox.id, ids));
        return { count: 0, failed: true };
      }
      await tx.update(eventOutbox).set({ sentAt: now(), lastError: null }).where(inArray(eventOutbox.id, ids));
      return { count: rows.length, failed: false };
    });
    sent += batch.count;
    if (batch.count < BATCH) return sent;
  }
}

/** Housekeeping: deletes rows sent more than a day ago. */
export async function deleteSentOutboxEvents(db: Db, now = new Date()): Promise<void> {
  await db.delete(eventOutbox).where(and(isNotNull(eventOutbox.sentAt), lt(eventOutbox.sentAt, new Date(now.getTime() - KEEP_SENT_MS))));
}

type PostgresJsListener = { listen(channel: string, onNotify: (payload: string) => void): Promise<{ unlisten(): Promise<void> }> };

/**
 * Runs `relayOutbox` whenever a transaction that wrote an outbox row commits
 * (LISTEN/NOTIFY), right after a local send, and every `pollIntervalMs`
 * (missed notifications, rows whose retry is due, rows left by a dead process).
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = true;
  private unlisten: (() => Promise<void>) | undefined;
  private lastHousekeeping = 0;

  constructor(
    private readonly db: Db,
    private readonly sink: OutboxSink,
    private readonly options: OutboxRelayOptions = {},
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    const client: unknown = (this.db as unknown as { $client?: unknown }).$client;
    if (client instanceof PGlite) {
      const stop = await client.listen(CHANNEL, () => this.wake());
      this.unlisten = () => stop();
    } else if (typeof client === "function" && "listen" in client) {
      const subscription = await (client as PostgresJsListener).listen(CHANNEL, () => this.wake());
      this.unlisten = () => subscription.unlisten();
    }
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.().catch(() => {});
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.pass();
  }

  private async pass(): Promise<void> {
    this.running = true;
    clearTimeout(this.timer);
    try {
      do {
        this.again = false;
        await relayOutbox(this.db, this.sink);
      } while (this.again && !this.stopped);
      if (Date.now() - this.lastHousekeeping > 3600_000) {
        this.lastHousekeeping = Date.now();
        await deleteSentOutboxEvents(this.db);
        await this.options.housekeeping?.(this.db);
      }
    } catch (error) {
      (this.options.logger ?? console).error("outbox: relay pass failed; trying again later", error);
    } finally {
      this.running = false;
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => this.wake(), this.options.pollIntervalMs ?? 5_000);
      this.timer.unref();
    }
  }
}

// One relay per process (Next.js may load this module in several bundles).
const relayKey = Symbol.for("svc-results.outbox-relay");
type GlobalWithRelay = typeof globalThis & { [relayKey]?: OutboxRelay };

export async function startOutboxRelay(db: Db, sink: OutboxSink, options: OutboxRelayOptions = {}): Promise<OutboxRelay> {
  const g = globalThis as GlobalWithRelay;
  if (g[relayKey]) return g[relayKey];
  const relay = new OutboxRelay(db, sink, options);
  g[relayKey] = relay;
  await relay.start();
  return relay;
}

/** Wakes this process's relay (after a send outside a transaction: the row is already committed). */
export function nudgeOutboxRelay(): void {
  (globalThis as GlobalWithRelay)[relayKey]?.wake();
}
