import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookDeliveries, webhookEndpoints } from "../db/schema";
import { sendEvents } from "../events/send-event";
import { rowsOf } from "../sessions/session-log";
import { attemptWebhookDelivery, type DeliveryDeps } from "./deliver";

/**
 * Per-endpoint dispatch (docs/webhooks.md "Dispatch"). The deliveries
 * themselves are the queue: `webhook_deliveries` rows committed with the
 * change. One `dispatch-webhooks` run at a time is responsible for an
 * endpoint (its `dispatch_queued_at` is set): it claims the endpoint's due
 * deliveries in id order, a batch at a time (`FOR UPDATE SKIP LOCKED` and a
 * lease, so two dispatchers never send one delivery at once), sends them one
 * after another (first attempts in commit order), and when nothing is due it
 * hands the endpoint back. Endpoints are worked in parallel, so a slow or
 * failing endpoint delays only itself.
 */

/** Advisory lock class guarding the hand-back of an endpoint against emissions committing meanwhile. */
const DISPATCH_LOCK = 7_301;

export const DISPATCH = {
  /** Deliveries claimed at once. */
  batchSize: 50,
  /** A claim's lease: a dispatcher that died mid-batch leaves its deliveries to another after this. */
  claimMs: 60_000,
  /** A step sends for at most this long, then the run records its progress and goes on with the next step. */
  stepBudgetMs: 10_000,
  /** With nothing due, the step looks again for this long (every `pollMs`) before handing the endpoint back. */
  lingerMs: 500,
  pollMs: 50,
  /** A responsible run whose heartbeat is older than this, with deliveries overdue, is presumed lost. */
  staleMs: 10 * 60_000,
};

export interface DispatchOptions extends DeliveryDeps {
  /** Who claims (the run id); a repeated step of the same run takes its own claims back at once. */
  owner: string;
  stepBudgetMs?: number;
  lingerMs?: number;
}

const timeoutOf = (deps: DeliveryDeps) => deps.timeoutMs ?? 15_000;

/**
 * In the emitting transaction, after its deliveries are inserted: makes sure
 * a dispatch run is responsible for each endpoint. Only an endpoint nobody is
 * responsible for gets an event (one `webhook/endpoint-due`, not one per
 * delivery). The shared advisory lock makes the run's hand-back wait for this
 * transaction, so the run's last look sees these deliveries.
 */
export async function requestDispatch(tx: Db, endpointIds: readonly number[]): Promise<void> {
  const ids = [...new Set(endpointIds)].sort((a, b) => a - b);
  if (!ids.length) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock_shared(${DISPATCH_LOCK}, id) from (select unnest(array[${sql.join(ids, sql`, `)}]::int[]) as id order by id) ids`,
  );
  const woken = await tx
    .update(webhookEndpoints)
    .set({ dispatchQueuedAt: sql`now()` })
    .where(and(inArray(webhookEndpoints.id, ids), isNull(webhookEndpoints.dispatchQueuedAt)))
    .returning({ id: webhookEndpoints.id });
  await sendDue(
    tx,
    woken.map(({ id }) => id),
  );
}

function sendDue(db: Db, endpointIds: readonly number[]) {
  return sendEvents(
    db,
    endpointIds.map((endpointId) => ({
      name: "webhook/endpoint-due",
      data: { endpointId },
      id: `webhook-dispatch-${endpointId}-${randomBytes(6).toString("hex")}`,
    })),
  );
}

/** Claims up to `batchSize` due deliveries of the endpoint, oldest first, for `owner`. */
async function claim(db: Db, endpointId: number, owner: string, limit: number): Promise<number[]> {
  const rows = await db.execute(sql`
    update webhook_deliveries set claimed_by = ${owner}, claimed_until = now() + ${`${DISPATCH.claimMs} milliseconds`}::interval
    where id in (
      select id from webhook_deliveries
      where endpoint_id = ${endpointId} and status = 'pending' and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now() or claimed_by = ${owner})
      order by id limit ${limit}
      for update skip locked)
    returning id`);
  return rowsOf<{ id: string | number }>(rows)
    .map((r) => Number(r.id))
    .sort((a, b) => a - b);
}

async function unclaim(db: Db, ids: readonly number[], owner: string): Promise<void> {
  if (!ids.length) return;
  await db
    .update(webhookDeliveries)
    .set({ claimedBy: null, claimedUntil: null })
    .where(and(inArray(webhookDeliveries.id, [...ids]), eq(webhookDeliveries.claimedBy, owner)));
}

export type BatchOutcome = { state: "more" | "idle"; sent: number };

/**
 * One step of an endpoint's run: claims and sends due deliveries, batch
 * after batch, for up to `stepBudgetMs`; with nothing due it looks again for
 * `lingerMs` (new events keep arriving at a busy endpoint) before it answers
 * "idle". Each attempt is `attemptWebhookDelivery` (sign, POST, record). A
 * claim is sent only while its lease leaves room for the request's timeout;
 * what is left is given back.
 */
export async function dispatchEndpointBatch(db: Db, endpointId: number, options: DispatchOptions): Promise<BatchOutcome> {
  const { owner, stepBudgetMs = DISPATCH.stepBudgetMs, lingerMs = DISPATCH.lingerMs, ...deps } = options;
  const started = Date.now();
  let idleSince = Date.now();
  let sent = 0;
  // Heartbeat: this endpoint still has a live dispatcher.
  await db
    .update(webhookEndpoints)
    .set({ dispatchQueuedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpointId), isNotNull(webhookEndpoints.dispatchQueuedAt)));
  while (Date.now() - started < stepBudgetMs) {
    const claimedAt = Date.now();
    const ids = await claim(db, endpointId, owner, DISPATCH.batchSize);
    if (!ids.length) {
      if (Date.now() - idleSince >= lingerMs) return { state: "idle", sent };
      await new Promise((resolve) => setTimeout(resolve, DISPATCH.pollMs));
      continue;
    }
    let done = 0;
    for (const id of ids) {
      if (Date.now() + timeoutOf(deps) + 5_000 > claimedAt + DISPATCH.claimMs || Date.now() - started >= stepBudgetMs) break;
      await attemptWebhookDelivery(db, id, deps);
      done += 1;
    }
    sent += done;
    // Given back: the unsent ones, and the retried ones (their next attempt is not this claim's business).
    await unclaim(db, ids, owner);
    idleSince = Date.now();
    if (done < ids.length) return { state: "more", sent };
  }
  return { state: "more", sent };
}

export type ReleaseOutcome = { state: "continue" } | { state: "done" } | { state: "sleep"; until: string };

/**
 * Nothing is due: hands the endpoint back (clears `dispatch_queued_at`, after
 * every emitting transaction holding the shared lock has committed), then
 * looks once more. Work that became due meanwhile is taken back at once when
 * nobody else took responsibility ("continue"); pending retries make the run
 * sleep until the first of them ("sleep"), without holding the endpoint, so
 * new events start a run of their own at once.
 */
export async function releaseDispatch(db: Db, endpointId: number): Promise<ReleaseOutcome> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DISPATCH_LOCK}, ${endpointId})`);
    await tx.update(webhookEndpoints).set({ dispatchQueuedAt: null }).where(eq(webhookEndpoints.id, endpointId));
  });
  const [next] = rowsOf<{ due: boolean | null; next: string | Date | null }>(
    await db.execute(sql`
    select bool_or(next_attempt_at <= now()) as due, min(next_attempt_at) as next
    from webhook_deliveries where endpoint_id = ${endpointId} and status = 'pending'`),
  );
  if (next?.due) return (await retakeDispatch(db, endpointId)) ? { state: "continue" } : { state: "done" };
  if (next?.next) return { state: "sleep", until: new Date(next.next).toISOString() };
  return { state: "done" };
}

/** After a sleep: becomes responsible again unless another run already is (that one sees the retries). */
export async function retakeDispatch(db: Db, endpointId: number): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ dispatchQueuedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.dispatchQueuedAt)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** A run that reached its step limit passes the endpoint on to a fresh run (it stays responsible meanwhile). */
export async function handOverDispatch(db: Db, endpointId: number): Promise<void> {
  await sendDue(db, [endpointId]);
}

/**
 * Housekeeping: an endpoint with deliveries overdue for `staleMs` whose
 * responsible run shows no heartbeat for as long (or has none) gets a fresh
 * run. Catches a run an Inngest server lost, or deliveries queued before
 * this dispatch existed.
 */
export async function redispatchStalledEndpoints(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DISPATCH.staleMs);
  const overdue = db
    .selectDistinct({ id: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lt(webhookDeliveries.nextAttemptAt, cutoff),
        or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
      ),
    );
  const stalled = await db
    .update(webhookEndpoints)
    .set({ dispatchQueuedAt: now })
    .where(
      and(
        inArray(webhookEndpoints.id, overdue),
        or(isNull(webhookEndpoints.dispatchQueuedAt), lt(webhookEndpoints.dispatchQueuedAt, cutoff)),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  await sendDue(
    db,
    stalled.map(({ id }) => id),
  );
  return stalled.length;
}
