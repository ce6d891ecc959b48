import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { athleteInvitations, athletes, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import { ZAthleteInput, type AthleteInput } from "./athletes";
import { isUniqueViolation } from "../db/pg-errors";

/**
 * Linking an athlete record to the person's own account (docs/access.md
 * "Linking an athlete record to an account"): the record's manager invites
 * the person by email with a single-use, expiring link; the person accepts
 * it signed in with that email; either side unlinks. An account is linked to
 * at most one athlete record (athletes.user_id is unique): its own profile,
 * which it may also create itself. Linking is what makes sessions the
 * person paddled in theirs (session_access follows athletes.user_id).
 */

/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 7;

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** 256 random bits, URL-safe; the prefix makes a leaked link recognisable. */
const newToken = () => `svcinv_${randomBytes(32).toString("base64url")}`;

/** Only the token's own alphabet: anything else is not one of ours (and never reaches the database). */
const TOKEN_SHAPE = /^svcinv_[A-Za-z0-9_-]{43}$/;

export interface CreatedInvitation {
  id: number;
  email: string;
  expiresAt: Date;
  /** The secret link path, shown once; only its hash is stored. */
  path: string;
}

/** The manager of the record invites the person at `email`; earlier pending invitations of the record stop working. */
export async function inviteAthlete(
  db: Db,
  managerId: number,
  input: { athleteId: number; email: string },
  now = new Date(),
): Promise<CreatedInvitation> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254)
    throw new AppError("invalid", "Enter a valid email address", { email: ["Enter a valid email address"] });
  return db.transaction(async (tx) => {
    const [athlete] = await tx
      .select({ id: athletes.id, userId: athletes.userId })
      .from(athletes)
      .where(and(eq(athletes.id, input.athleteId), eq(athletes.ownerUserId, managerId)))
      .for("update");
    if (!athlete) throw notFound("Athlete");
    if (athlete.userId !== null) throw new AppError("conflict", "This athlete is already linked to an account. Unlink it first.");
    await tx
      .update(athleteInvitations)
      .set({ revokedAt: now })
      .where(
        and(eq(athleteInvitations.athleteId, athlete.id), isNull(athleteInvitations.acceptedAt), isNull(athleteInvitations.revokedAt)),
      );
    const token = newToken();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000);
    const [row] = await tx
      .insert(athleteInvitations)
      .values({ athleteId: athlete.id, invitedByUserId: managerId, email, tokenHash: hashToken(token), expiresAt, createdAt: now })
      .returning({ id: athleteInvitations.id });
    return { id: row.id, email, expiresAt, path: `/invitations/${token}` };
  });
}

export type InvitationStatus = "pending" | "expired" | "used" | "withdrawn";

export interface InvitationView {
  status: InvitationStatus;
  athleteName: string;
  invitedByName: string;
  email: string;
  expiresAt: Date;
}

/** What the invitation page shows; null for a token that is not ours (the page answers 404). */
export async function findInvitation(db: Db, token: string, now = new Date()): Promise<InvitationView | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .select({
      name: athletes.name,
      surname: athletes.surname,
      invitedByName: users.name,
      email: athleteInvitations.email,
      expiresAt: athleteInvitations.expiresAt,
      acceptedAt: athleteInvitations.acceptedAt,
      revokedAt: athleteInvitations.revokedAt,
    })
    .from(athleteInvitations)
    .innerJoin(athletes, eq(athletes.id, athleteInvitations.athleteId))
    .innerJoin(users, eq(users.id, athleteInvitations.invitedByUserId))
    .where(eq(athleteInvitations.tokenHash, hashToken(token)));
  if (!row) return null;
  const status: InvitationStatus = row.acceptedAt
    ? "used"
    : row.revokedAt
      ? "withdrawn"
      : row.expiresAt.getTime() <= now.getTime()
        ? "expired"
        : "pending";
  return {
    status,
    athleteName: `${row.name} ${row.surname}`.trim(),
    invitedByName: row.invitedByName,
    email: row.email,
    expiresAt: row.expiresAt,
  };
}

const UNUSABLE: Record<Exclude<InvitationStatus, "pending">, string> = {
  used: "This invitation has already been used.",
  expired: "This invitation has expired. Ask for a new one.",
  withdrawn: "This invitation was withdrawn. Ask for a new one.",
};

/**
 * The signed-in person accepts: the record becomes theirs (athletes.user_id).
 * Single use: the invitation is consumed by one conditional update, so two
 * concurrent accepts cannot both win.
 */
export async function acceptInvitation(db: Db, userId: number, token: string, now = new Date()): Promise<{ athleteId: number }> {
  if (!TOKEN_SHAPE.test(token)) throw notFound("Invitation");
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .select({
        id: athleteInvitations.id,
        athleteId: athleteInvitations.athleteId,
        email: athleteInvitations.email,
        expiresAt: athleteInvitations.expiresAt,
        acceptedAt: athleteInvitations.acceptedAt,
        revokedAt: athleteInvitations.revokedAt,
      })
      .from(athleteInvitations)
      .where(eq(athleteInvitations.tokenHash, hashToken(token)))
      .for("update");
    if (!invitation) throw notFound("Invitation");
    if (invitation.acceptedAt) throw new AppError("conflict", UNUSABLE.used);
    if (invitation.revokedAt) throw new AppError("conflict", UNUSABLE.withdrawn);
    if (invitation.expiresAt.getTime() <= now.getTime()) throw new AppError("conflict", UNUSABLE.expired);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError("unauthenticated", "Please sign in.");
    if (user.email.toLowerCase() !== invitation.email) {
      throw new AppError("forbidden", "This invitation is for another email address. Sign in with the address it was sent to.");
    }
    const [alreadyLinked] = await tx.select({ id: athletes.id }).from(athletes).where(eq(athletes.userId, userId));
    if (alreadyLinked)
      throw new AppError("conflict", "Your account is already linked to an athlete record. Unlink it on your athlete profile first.");
    const consumed = await tx
      .update(athleteInvitations)
      .set({ acceptedAt: now, acceptedByUserId: userId })
      .where(
        and(
          eq(athleteInvitations.id, invitation.id),
          isNull(athleteInvitations.acceptedAt),
          isNull(athleteInvitations.revokedAt),
          gt(athleteInvitations.expiresAt, now),
        ),
      )
      .returning({ id: athleteInvitations.id });
    if (consumed.length === 0) throw new AppError("conflict", UNUSABLE.used);
    const linked = await tx
      .update(athletes)
      .set({ userId, updatedAt: now })
      .where(and(eq(athletes.id, invitation.athleteId), isNull(athletes.userId)))
      .returning({ id: athletes.id });
    if (linked.length === 0) throw new AppError("conflict", "This athlete is already linked to another account.");
    return { athleteId: invitation.athleteId };
  });
}

/** The manager withdraws the record's pending invitations. */
export async function withdrawInvitations(db: Db, managerId: number, athleteId: number, now = new Date()): Promise<void> {
  const [athlete] = await db
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), eq(athletes.ownerUserId, managerId)));
  if (!athlete) throw notFound("Athlete");
  await db
    .update(athleteInvitations)
    .set({ revokedAt: now })
    .where(and(eq(athleteInvitations.athleteId, athleteId), isNull(athleteInvitations.acceptedAt), isNull(athleteInvitations.revokedAt)));
}

/** Either side unlinks: the record's manager, or the linked person. Anyone else: 404. */
export async function unlinkAthlete(db: Db, userId: number, athleteId: number): Promise<void> {
  const unlinked = await db
    .update(athletes)
    .set({ userId: null, updatedAt: new Date() })
    .where(
      and(
        eq(athletes.id, athleteId),
        sql`${athletes.userId} is not null`,
        sql`(${athletes.ownerUserId} = ${userId} or ${athletes.userId} = ${userId})`,
      ),
    )
    .returning({ id: athletes.id });
  if (unlinked.length === 0) throw notFound("Linked athlete");
}

export interface LinkStatus {
  linked: boolean;
  /** The pending invitation, when there is one. */
  pending: { email: string; expiresAt: Date } | null;
}

/** For the record's manager: whether the record is linked, and the pending invitation. */
export async function athleteLinkStatus(db: Db, managerId: number, athleteId: number, now = new Date()): Promise<LinkStatus> {
  const [athlete] = await db
    .select({ userId: athletes.userId })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), eq(athletes.ownerUserId, managerId)));
  if (!athlete) throw notFound("Athlete");
  const [pending] = await db
    .select({ email: athleteInvitations.email, expiresAt: athleteInvitations.expiresAt })
    .from(athleteInvitations)
    .where(
      and(
        eq(athleteInvitations.athleteId, athleteId),
        isNull(athleteInvitations.acceptedAt),
        isNull(athleteInvitations.revokedAt),
        gt(athleteInvitations.expiresAt, now),
      ),
    );
  return { linked: athlete.userId !== null, pending: pending ?? null };
}

export interface OwnAthleteProfile {
  id: number;
  name: string;
  surname: string;
  modality: string;
  /** Who manages the record: the person themself, or the coach who invited them. */
  managedBy: { self: true } | { self: false; name: string };
}

/** The athlete record linked to the account, if any. */
export async function getLinkedAthleteProfile(db: Db, userId: number): Promise<OwnAthleteProfile | null> {
  const [row] = await db
    .select({
      id: athletes.id,
      name: athletes.name,
      surname: athletes.surname,
      modality: athletes.modality,
      ownerUserId: athletes.ownerUserId,
      managerName: users.name,
    })
    .from(athletes)
    .innerJoin(users, eq(users.id, athletes.ownerUserId))
    .where(eq(athletes.userId, userId));
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    modality: row.modality,
    managedBy: row.ownerUserId === userId ? { self: true } : { self: false, name: row.managerName },
  };
}

/** A person creates their own athlete profile: a record they manage, linked to them. */
export async function createOwnAthleteProfile(db: Db, userId: number, input: AthleteInput): Promise<{ id: number }> {
  const values = ZAthleteInput.parse(input);
  const [alreadyLinked] = await db.select({ id: athletes.id }).from(athletes).where(eq(athletes.userId, userId));
  if (alreadyLinked) throw new AppError("conflict", "Your account already has an athlete profile.");
  try {
    const [row] = await db
      .insert(athletes)
      .values({ ...values, ownerUserId: userId, userId })
      .returning({ id: athletes.id });
    return row;
  } catch (error) {
    // Two tabs at once: the unique user_id decides.
    if (isUniqueViolation(error)) throw new AppError("conflict", "Your account already has an athlete profile.");
    throw error;
  }
}
