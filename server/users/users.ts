import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../auth/password";
import { clearSignInFailures, recordFailedSignIn, signInLock, type ThrottleScope } from "../auth/sign-in-throttle";
import type { Db } from "../db/client";
import { roles, users } from "../db/schema";
import { AppError } from "../errors";

export const ROLE_NAMES = ["viewer", "athlete", "coach", "operator"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const ZEmail = z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address").max(254, "At most 254 characters"));
export const ZPassword = z.string().min(10, "Use at least 10 characters").max(200, "Use at most 200 characters");

export const ZSignUp = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "At most 100 characters"),
  email: ZEmail,
  password: ZPassword,
});
export type SignUpInput = z.input<typeof ZSignUp>;

/** What the rest of the app knows about a signed-in user (never the hash). */
export interface SessionUser {
  id: number;
  email: string;
  name: string;
  role: RoleName;
  sessionVersion: number;
  canCreateSessions: boolean;
  canDeleteSessions: boolean;
  isOperator: boolean;
  unlimitedExternals: boolean;
}

export async function createUser(
  db: Db,
  input: SignUpInput,
  options: { role?: RoleName; unlimitedExternals?: boolean; accountKind?: "person" | "demo" | "sandbox" } = {},
): Promise<SessionUser> {
  const parsed = ZSignUp.parse(input);
  const roleName = options.role ?? "coach";
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, roleName));
  if (!role) throw new AppError("invalid", `Unknown role ${roleName}`, { role: [`Unknown role ${roleName}`] });
  const passwordHash = await hashPassword(parsed.password);
  const inserted = await db
    .insert(users)
    .values({
      email: parsed.email,
      name: parsed.name,
      passwordHash,
      roleId: role.id,
      unlimitedExternals: options.unlimitedExternals ?? false,
      accountKind: options.accountKind ?? "person",
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (inserted.length === 0) {
    throw new AppError("conflict", "An account with this email already exists", {
      email: ["An account with this email already exists"],
    });
  }
  return (await getSessionUser(db, inserted[0].id))!;
}

export async function getSessionUser(db: Db, userId: number): Promise<SessionUser | null> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: roles.name,
      sessionVersion: users.sessionVersion,
      canCreateSessions: roles.canCreateSessions,
      canDeleteSessions: roles.canDeleteSessions,
      isOperator: roles.isOperator,
      unlimitedExternals: users.unlimitedExternals,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    // A disabled account is no signed-in user anywhere: web sessions, the OAuth provider, key pairs.
    .where(and(eq(users.id, userId), isNull(users.disabledAt)));
  return row ? { ...row, role: row.role as RoleName } : null;
}

export type AuthenticateResult =
  | { ok: true; user: SessionUser }
  | { ok: false; code: "invalid_credentials" | "disabled" }
  | { ok: false; code: "throttled"; scope: ThrottleScope; retryAfterSeconds: number };

/**
 * Checks a password: the one sign-in of both doors, the site's and the OAuth
 * sign-in page (docs/auth.md "Failed sign-ins"). Unknown email and wrong
 * password are the same failure; failures count against the account and,
 * when known (TRUST_PROXY), the client address.
 */
export async function authenticate(
  db: Db,
  email: string,
  password: string,
  options: { clientAddress?: string; now?: Date } = {},
): Promise<AuthenticateResult> {
  const now = options.now ?? new Date();
  const who = { email, clientAddress: options.clientAddress };
  const lock = await signInLock(db, who, now);
  if (lock) return { ok: false, code: "throttled", ...lock };
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  const valid = row ? await verifyPassword(row.passwordHash, password) : (await burnPasswordCheck(password), false);
  if (!row || !valid) {
    await recordFailedSignIn(db, who, now);
    return { ok: false, code: "invalid_credentials" };
  }
  await clearSignInFailures(db, email);
  // Said only after the right password: it tells nothing to someone guessing.
  if (row.disabledAt) return { ok: false, code: "disabled" };
  return { ok: true, user: (await getSessionUser(db, row.id))! };
}

/** Ends every existing session of the user at once (the version in their cookies no longer matches). */
export async function signOutEverywhere(db: Db, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export const ZChangePassword = z.object({
  currentPassword: z.string().min(1, "Enter your current password"),
  newPassword: ZPassword,
});

export async function changePassword(db: Db, userId: number, input: z.input<typeof ZChangePassword>): Promise<void> {
  const parsed = ZChangePassword.parse(input);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row || !(await verifyPassword(row.passwordHash, parsed.currentPassword))) {
    throw new AppError("invalid", "Current password is incorrect", { currentPassword: ["Current password is incorrect"] });
  }
  await db
    .update(users)
    .set({
      passwordHash: await hashPassword(parsed.newPassword),
      sessionVersion: sql`${users.sessionVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}
