import { and, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import { throttleKeyForEmail } from "../auth/sign-in-throttle";
import type { Db, Tx } from "../db/client";
import { operatorActions, roles, signInThrottle, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import { ROLE_NAMES } from "../users/users";
import { INT4_MAX } from "../contract/values";

/**
 * What an operator may do to an account from the operator page (docs/web-app.md
 * "Operator"): unlock a throttled sign-in, change the role, disable or enable.
 * Each is one transaction that locks the account row and writes its audit row,
 * and refuses a decision already made (the page hides that button), so two
 * operators clicking at once record one action.
 */
const userId = z.number().int().positive().max(INT4_MAX);
export const ZAccountTarget = z.object({ userId });
export const ZRoleChange = z.object({ userId, role: z.enum(ROLE_NAMES, { error: "Choose a role" }) });

type Action = (typeof operatorActions.$inferInsert)["action"];

async function lockTarget(tx: Tx, targetId: number) {
  const [row] = await tx
    .select({ id: users.id, email: users.email, disabledAt: users.disabledAt, role: roles.name })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, targetId))
    .for("update", { of: users });
  if (!row) throw notFound("Account");
  return row;
}

async function audit(
  tx: Tx,
  operatorId: number,
  target: { id: number; email: string },
  action: Action,
  details: Record<string, string> = {},
) {
  await tx
    .insert(operatorActions)
    .values({ operatorUserId: operatorId, targetUserId: target.id, targetEmail: target.email, action, details });
}

function notOnSelf(operatorId: number, targetId: number, what: string) {
  // An operator who demotes or disables themselves could leave the service without one.
  if (operatorId === targetId) throw new AppError("conflict", `You cannot ${what} your own account; ask another operator.`);
}

/** Clears the account's sign-in throttle (failures and lock). The per-address counter is left alone: it is not the account's. */
export async function unlockAccount(db: Db, operatorId: number, input: z.input<typeof ZAccountTarget>): Promise<void> {
  const { userId: targetId } = ZAccountTarget.parse(input);
  await db.transaction(async (tx) => {
    const target = await lockTarget(tx, targetId);
    const cleared = await tx
      .delete(signInThrottle)
      .where(and(eq(signInThrottle.key, throttleKeyForEmail(target.email)), gt(signInThrottle.lockedUntil, sql`now()`)))
      .returning({ key: signInThrottle.key });
    if (cleared.length === 0) throw new AppError("conflict", "This account is not locked.");
    await audit(tx, operatorId, target, "unlock");
  });
}

export async function changeRole(db: Db, operatorId: number, input: z.input<typeof ZRoleChange>): Promise<void> {
  const { userId: targetId, role } = ZRoleChange.parse(input);
  notOnSelf(operatorId, targetId, "change the role of");
  await db.transaction(async (tx) => {
    const target = await lockTarget(tx, targetId);
    if (target.role === role) throw new AppError("conflict", `This account is already ${role}.`);
    const [roleRow] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
    await tx.update(users).set({ roleId: roleRow.id, updatedAt: new Date() }).where(eq(users.id, targetId));
    await audit(tx, operatorId, target, "change_role", { from: target.role, to: role });
  });
}

/** The account cannot sign in; its sessions end (session version bumped), its tokens and key pairs are refused while disabled. */
export async function disableAccount(db: Db, operatorId: number, input: z.input<typeof ZAccountTarget>): Promise<void> {
  const { userId: targetId } = ZAccountTarget.parse(input);
  notOnSelf(operatorId, targetId, "disable");
  await db.transaction(async (tx) => {
    const target = await lockTarget(tx, targetId);
    if (target.disabledAt) throw new AppError("conflict", "This account is already disabled.");
    await tx
      .update(users)
      .set({ disabledAt: new Date(), sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, targetId));
    await audit(tx, operatorId, target, "disable");
  });
}

/** Sign-in works again; ended web sessions stay ended, unexpired tokens and unrevoked key pairs work again. */
export async function enableAccount(db: Db, operatorId: number, input: z.input<typeof ZAccountTarget>): Promise<void> {
  const { userId: targetId } = ZAccountTarget.parse(input);
  await db.transaction(async (tx) => {
    const target = await lockTarget(tx, targetId);
    if (!target.disabledAt) throw new AppError("conflict", "This account is not disabled.");
    await tx.update(users).set({ disabledAt: null, updatedAt: new Date() }).where(eq(users.id, targetId));
    await audit(tx, operatorId, target, "enable");
  });
}

/** The latest actions on accounts, newest first, with the operator's name. */
export async function listOperatorActions(db: Db, limit = 50) {
  return db
    .select({
      id: operatorActions.id,
      action: operatorActions.action,
      details: operatorActions.details,
      targetEmail: operatorActions.targetEmail,
      operatorName: users.name,
      createdAt: operatorActions.createdAt,
    })
    .from(operatorActions)
    .leftJoin(users, eq(users.id, operatorActions.operatorUserId))
    .orderBy(sql`${operatorActions.createdAt} desc, ${operatorActions.id} desc`)
    .limit(limit);
}
