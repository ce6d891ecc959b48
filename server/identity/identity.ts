import { eq } from "drizzle-orm";
import { getOrCreateAppSecret } from "../auth/app-secrets";
import { pairwiseSubject, sectorOf } from "../auth/oauth/pairwise";
import type { Db } from "../db/client";
import { athletes, oauthApplications, users } from "../db/schema";
import { notFound } from "../errors";

/**
 * The authorizing person as one application may know them (Data API GET /me):
 * the pairwise subject of that application, and the name and email when the
 * token carries profile and email. The internal user id never leaves.
 */
export async function getSubjectIdentity(db: Db, userId: number, applicationId: number) {
  const [[user], [app], key] = await Promise.all([
    db.select({ name: users.name, email: users.email, accountKind: users.accountKind }).from(users).where(eq(users.id, userId)),
    db
      .select({ clientId: oauthApplications.clientId, redirectUris: oauthApplications.redirectUris })
      .from(oauthApplications)
      .where(eq(oauthApplications.id, applicationId)),
    getOrCreateAppSecret(db, "oauth:pairwise"),
  ]);
  if (!user || !app) throw notFound("Subject");
  return {
    sub: pairwiseSubject(key, sectorOf(app.redirectUris, app.clientId), String(userId)),
    name: user.name,
    email: user.email,
    sandbox: user.accountKind === "sandbox",
  };
}

/** The subject's own athlete profile: the athlete record linked to their account. */
export async function getOwnAthleteProfile(db: Db, userId: number) {
  const [row] = await db
    .select({
      id: athletes.id,
      name: athletes.name,
      surname: athletes.surname,
      dateOfBirth: athletes.dateOfBirth,
      modality: athletes.modality,
    })
    .from(athletes)
    .where(eq(athletes.userId, userId));
  if (!row) throw notFound("Athlete profile");
  return row;
}
