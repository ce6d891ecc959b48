import type { Db, Tx } from "../db/client";
import { AppError } from "../errors";

/**
 * The one shape of a delete that people confirm (docs/web-app.md "Deleting"):
 * the page first shows what the delete would do (`describeDeletion`), and the
 * delete itself recounts that impact under a row lock in the same transaction,
 * refusing with the statement's reason (409) when something still depends on
 * the row. The lock orders it against an upload or correction that would add
 * a dependant in between.
 */
export interface DeletionPlan<Row, Impact extends { refusal?: string | null }> {
  /** The caller's own row (FOR UPDATE when `lock`), or the 404 of a missing one: not-yours and absent are alike. */
  own(db: Db | Tx, lock: boolean): Promise<Row>;
  /** What the delete would change, in counts and one statement; `refusal` set when it must not happen. */
  impact(db: Db | Tx, row: Row): Promise<Impact>;
  /** The delete itself, inside the transaction, once the impact allows it. */
  remove(tx: Tx, row: Row): Promise<void>;
}

/** What the confirm dialog says, read without a lock. */
export async function describeDeletion<Row, Impact extends { refusal?: string | null }>(
  db: Db,
  plan: DeletionPlan<Row, Impact>,
): Promise<Impact> {
  return plan.impact(db, await plan.own(db, false));
}

/** Locks the row, recounts, refuses with the statement's reason or deletes: one transaction. */
export async function deleteWithImpact<Row, Impact extends { refusal?: string | null }>(
  db: Db,
  plan: DeletionPlan<Row, Impact>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await plan.own(tx, true);
    const { refusal } = await plan.impact(tx, row);
    if (refusal) throw new AppError("conflict", refusal);
    await plan.remove(tx, row);
  });
}
