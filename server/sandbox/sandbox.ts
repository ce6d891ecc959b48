import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getApplication } from "../applications/applications";
import { randomBase62 } from "../auth/random-base62";
import type { Db } from "../db/client";
import {
  athleteInvitations,
  athletes,
  deviceJobs,
  devices,
  equipmentPaddles,
  equipmentVessels,
  exportJobs,
  healthLactate,
  healthWeights,
  oauthApplications,
  replayEmbeds,
  results,
  resultShares,
  sandboxAccounts,
  teamMemberships,
  teams,
  tracks,
  trainings,
  users,
  workoutTemplates,
} from "../db/schema";
import { isUniqueViolation } from "../db/pg-errors";
import { AppError, notFound } from "../errors";
import { createKeyPair, listKeyPairs, ZKeyPairName, type KeyPairListItem, type KeyPairView } from "../keys/key-pairs";
import { createUser, getSessionUser, type SessionUser } from "../users/users";
import { generateSeason, SEASON_LIMITS, type SeasonDeps, type SeasonSummary } from "./season";

/**
 * Sandbox people (docs/sandbox.md): an application's owner makes one test
 * person for that application, filled with a simulated season, signs in as
 * it, authorizes the application against it and resets it. Every function
 * is scoped to the owner: another person's application or sandbox is the
 * same 404 as a missing one.
 */
export const DEFAULT_SANDBOX_SEASON = { seed: 2026, weeks: 4, sessionsPerWeek: 3 } as const;

export const ZSandboxOptions = z.object({
  seed: z.number().int().min(1).max(1_000_000).default(DEFAULT_SANDBOX_SEASON.seed),
  weeks: z.number().int().min(SEASON_LIMITS.weeks.min).max(SEASON_LIMITS.weeks.max).default(DEFAULT_SANDBOX_SEASON.weeks),
  sessionsPerWeek: z
    .number()
    .int()
    .min(SEASON_LIMITS.sessionsPerWeek.min)
    .max(SEASON_LIMITS.sessionsPerWeek.max)
    .default(DEFAULT_SANDBOX_SEASON.sessionsPerWeek),
});
export type SandboxOptions = z.input<typeof ZSandboxOptions>;

export interface SandboxView {
  applicationId: number;
  userId: number;
  name: string;
  email: string;
  seed: number;
  weeks: number;
  sessionsPerWeek: number;
  createdAt: Date;
  resetAt: Date | null;
  /** What the person holds now. */
  counts: { sessions: number; trainings: number; devices: number; templates: number };
}

const SANDBOX_NAME = "Sam Sandbox";

async function sandboxRow(db: Db, ownerUserId: number, applicationId: number) {
  const [row] = await db
    .select()
    .from(sandboxAccounts)
    .where(and(eq(sandboxAccounts.applicationId, applicationId), eq(sandboxAccounts.ownerUserId, ownerUserId)));
  return row ?? null;
}

/** The application's sandbox, or null when it has none. The application must be the owner's (else 404). */
export async function getSandbox(db: Db, ownerUserId: number, applicationId: number): Promise<SandboxView | null> {
  await getApplication(db, ownerUserId, applicationId);
  const row = await sandboxRow(db, ownerUserId, applicationId);
  if (!row) return null;
  const [person] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, row.userId));
  const count = (table: string, column: string) =>
    sql<number>`(select count(*)::int from ${sql.identifier(table)} where ${sql.identifier(column)} = ${row.userId})`;
  const [counts] = await db
    .select({
      sessions: count("results", "owner_user_id"),
      trainings: count("trainings", "owner_user_id"),
      devices: count("devices", "owner_user_id"),
      templates: count("workout_templates", "owner_user_id"),
    })
    .from(sql`(select 1) as one`);
  return {
    applicationId,
    userId: row.userId,
    name: person.name,
    email: person.email,
    seed: row.seed,
    weeks: row.weeks,
    sessionsPerWeek: row.sessionsPerWeek,
    createdAt: row.createdAt,
    resetAt: row.resetAt,
    counts,
  };
}

/** The sandbox person as a signed-in user, for its owner only (sign-in-as and the portal's actions). */
export async function getSandboxPerson(
  db: Db,
  ownerUserId: number,
  applicationId: number,
): Promise<{ person: SessionUser; applicationId: number; seed: number }> {
  const row = await sandboxRow(db, ownerUserId, applicationId);
  const person = row ? await getSessionUser(db, row.userId) : null;
  if (!row || !person) throw notFound("Sandbox");
  return { person, applicationId, seed: row.seed };
}

/** Whether `userId` is a sandbox person and, if so, whose and for which application. */
export async function sandboxOf(db: Db, userId: number): Promise<{ ownerUserId: number; applicationId: number } | null> {
  const [row] = await db
    .select({ ownerUserId: sandboxAccounts.ownerUserId, applicationId: sandboxAccounts.applicationId })
    .from(sandboxAccounts)
    .where(eq(sandboxAccounts.userId, userId));
  return row ?? null;
}

/**
 * Makes the application's sandbox person and its season, all in one
 * transaction: either the person exists with every file processed, or
 * nothing does. Its password is random and never shown: only the owner
 * signs in as it, from the portal.
 */
export async function createSandbox(
  db: Db,
  owner: SessionUser,
  applicationId: number,
  input: SandboxOptions = {},
  deps: SeasonDeps = {},
): Promise<SandboxView> {
  const options = ZSandboxOptions.parse(input);
  await getApplication(db, owner.id, applicationId);
  // A test person makes no test people of its own.
  if (await sandboxOf(db, owner.id)) throw new AppError("forbidden", "A sandbox person cannot make a sandbox");
  if (await sandboxRow(db, owner.id, applicationId))
    throw new AppError("conflict", "This application already has a sandbox person; reset it instead");
  await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const person = await createUser(
      txDb,
      { name: SANDBOX_NAME, email: `sandbox-${randomBase62(12).toLowerCase()}@sandbox.invalid`, password: randomBase62(40) },
      { role: "coach", accountKind: "sandbox" },
    );
    try {
      await tx.insert(sandboxAccounts).values({ userId: person.id, ownerUserId: owner.id, applicationId, ...options });
    } catch (error) {
      // Two clicks raced past the check above: the unique application_id let one win.
      if (isUniqueViolation(error, "sandbox_accounts_application_id_unique"))
        throw new AppError("conflict", "This application already has a sandbox person; reset it instead");
      throw error;
    }
    await generateSeason(txDb, person, { ...options, applicationId }, deps);
  });
  return (await getSandbox(db, owner.id, applicationId))!;
}

/**
 * Deletes everything the person holds, in dependency order. The account
 * row stays (same id, so the same pairwise `sub` for the application) and
 * so do its authorizations and its key pairs (the test keys): the
 * application and the integrator's tests keep working against the fresh
 * season. Blob rows are named by key, not by foreign key, so the
 * SQL function of drizzle/0036 removes them first.
 */
async function clearPerson(tx: Db, personId: number): Promise<void> {
  await tx.execute(sql`select sandbox_delete_blobs(${personId})`);
  await tx.delete(exportJobs).where(eq(exportJobs.subjectUserId, personId));
  await tx.delete(deviceJobs).where(eq(deviceJobs.subjectUserId, personId));
  await tx.delete(replayEmbeds).where(eq(replayEmbeds.subjectUserId, personId));
  await tx.delete(resultShares).where(eq(resultShares.createdByUserId, personId));
  await tx.delete(results).where(eq(results.ownerUserId, personId));
  await tx.delete(trainings).where(eq(trainings.ownerUserId, personId));
  await tx.delete(healthWeights).where(eq(healthWeights.userId, personId));
  await tx.delete(healthLactate).where(eq(healthLactate.userId, personId));
  await tx.delete(oauthApplications).where(eq(oauthApplications.ownerUserId, personId));
  await tx.delete(athleteInvitations).where(eq(athleteInvitations.invitedByUserId, personId));
  await tx.delete(teamMemberships).where(eq(teamMemberships.userId, personId));
  await tx.delete(teams).where(eq(teams.ownerUserId, personId));
  await tx.delete(workoutTemplates).where(eq(workoutTemplates.ownerUserId, personId));
  await tx.delete(equipmentVessels).where(eq(equipmentVessels.ownerUserId, personId));
  await tx.delete(equipmentPaddles).where(eq(equipmentPaddles.ownerUserId, personId));
  await tx.delete(athletes).where(or(eq(athletes.ownerUserId, personId), eq(athletes.userId, personId)));
  await tx.delete(tracks).where(eq(tracks.ownerUserId, personId));
  await tx.delete(devices).where(eq(devices.ownerUserId, personId));
}

/**
 * Back to the initial season: deletes the person's data and generates the
 * same season again, in one transaction (a failure leaves the sandbox as it
 * was). The sandbox row is locked, so two resets run one after the other.
 */
export async function resetSandbox(db: Db, ownerUserId: number, applicationId: number, deps: SeasonDeps = {}): Promise<SandboxView> {
  await getApplication(db, ownerUserId, applicationId);
  await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const [row] = await tx
      .select()
      .from(sandboxAccounts)
      .where(and(eq(sandboxAccounts.applicationId, applicationId), eq(sandboxAccounts.ownerUserId, ownerUserId)))
      .for("update");
    if (!row) throw notFound("Sandbox");
    const person = await getSessionUser(txDb, row.userId);
    if (!person) throw notFound("Sandbox");
    await clearPerson(txDb, person.id);
    await generateSeason(txDb, person, { seed: row.seed, weeks: row.weeks, sessionsPerWeek: row.sessionsPerWeek, applicationId }, deps);
    await tx.update(sandboxAccounts).set({ resetAt: new Date() }).where(eq(sandboxAccounts.id, row.id));
  });
  return (await getSandbox(db, ownerUserId, applicationId))!;
}

/** Deletes the sandbox person with everything it holds (the trigger of drizzle/0036 removes the account). */
export async function deleteSandbox(db: Db, ownerUserId: number, applicationId: number): Promise<void> {
  await getApplication(db, ownerUserId, applicationId);
  const deleted = await db
    .delete(sandboxAccounts)
    .where(and(eq(sandboxAccounts.applicationId, applicationId), eq(sandboxAccounts.ownerUserId, ownerUserId)))
    .returning({ id: sandboxAccounts.id });
  if (deleted.length === 0) throw notFound("Sandbox");
}

/**
 * A test key pair (docs/sandbox.md "Test keys"): a results API key pair that
 * acts as the application's sandbox person, made by the owner from the
 * application's page in one action, bound to the application (its uploads
 * count as created by it, as the season's sessions do). Like any key pair it
 * reaches only what its person may: the sandbox's own data. The secret is
 * returned once and stored hashed.
 */
export async function createTestKeyPair(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  input: z.input<typeof ZKeyPairName>,
): Promise<{ keyPair: KeyPairView; secretKey: string }> {
  await getApplication(db, ownerUserId, applicationId);
  const { person } = await getSandboxPerson(db, ownerUserId, applicationId);
  return createKeyPair(db, person.id, input, applicationId);
}

/** The test key pairs of the application's sandbox person, newest first (none without a sandbox). */
export async function listTestKeyPairs(db: Db, ownerUserId: number, applicationId: number): Promise<KeyPairListItem[]> {
  const row = await sandboxRow(db, ownerUserId, applicationId);
  if (!row) return [];
  return (await listKeyPairs(db, ownerUserId)).filter((k) => k.sandboxPerson && k.ownerUserId === row.userId);
}

export type { SeasonSummary };
