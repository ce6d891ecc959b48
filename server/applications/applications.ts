import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { oauthApplicationOrigins, oauthApplications } from "../db/schema";
import { AppError, notFound } from "../errors";
import { revokeAllGrantsOfApplication } from "../auth/oauth/grants";
import type { Surface } from "../auth/oauth/scopes";
import {
  checkApplicationFields,
  ZApplicationInput,
  ZApplicationUpdate,
  type ApplicationInput,
  type ApplicationUpdate,
} from "./application-rules";
import { newClientId, newClientSecret } from "./client-secrets";

/**
 * OAuth applications in the developer portal (docs/oauth.md "Applications").
 * Every function is scoped to the owner: another user's application is the
 * same 404 as a missing one.
 */
export type ReviewStatus = "not_required" | "pending" | "approved" | "rejected";
export type OriginStatus = "pending" | "approved" | "rejected";

export interface ApplicationView {
  id: number;
  clientId: string;
  name: string;
  surface: Surface;
  clientType: "confidential" | "public";
  /** First characters of the current secret; null for public clients. */
  clientSecretStart: string | null;
  clientSecretCreatedAt: Date | null;
  redirectUris: string[];
  scopes: string[];
  reviewStatus: ReviewStatus;
  reviewNote: string | null;
  introspectionAllowed: boolean;
  origins: { id: number; origin: string; status: OriginStatus }[];
  createdAt: Date;
  updatedAt: Date;
}

/** The columns every application view selects: the owner's (here) and the operator's (application-review.ts), declared once. */
export const appColumns = {
  id: oauthApplications.id,
  clientId: oauthApplications.clientId,
  name: oauthApplications.name,
  surface: oauthApplications.surface,
  clientType: oauthApplications.clientType,
  clientSecretStart: oauthApplications.clientSecretStart,
  clientSecretCreatedAt: oauthApplications.clientSecretCreatedAt,
  redirectUris: oauthApplications.redirectUris,
  scopes: oauthApplications.scopes,
  reviewStatus: oauthApplications.reviewStatus,
  reviewNote: oauthApplications.reviewNote,
  introspectionAllowed: oauthApplications.introspectionAllowed,
  createdAt: oauthApplications.createdAt,
  updatedAt: oauthApplications.updatedAt,
};

async function withOrigins(db: Db, apps: Omit<ApplicationView, "origins">[]): Promise<ApplicationView[]> {
  if (apps.length === 0) return [];
  const origins = await db
    .select({
      id: oauthApplicationOrigins.id,
      applicationId: oauthApplicationOrigins.applicationId,
      origin: oauthApplicationOrigins.origin,
      status: oauthApplicationOrigins.status,
    })
    .from(oauthApplicationOrigins)
    .where(
      inArray(
        oauthApplicationOrigins.applicationId,
        apps.map((a) => a.id),
      ),
    )
    .orderBy(asc(oauthApplicationOrigins.origin));
  return apps.map((app) => ({
    ...app,
    origins: origins.filter((o) => o.applicationId === app.id).map(({ id, origin, status }) => ({ id, origin, status })),
  }));
}

export async function listApplications(db: Db, ownerUserId: number): Promise<ApplicationView[]> {
  const apps = await db
    .select(appColumns)
    .from(oauthApplications)
    .where(eq(oauthApplications.ownerUserId, ownerUserId))
    .orderBy(desc(oauthApplications.createdAt), desc(oauthApplications.id));
  return withOrigins(db, apps);
}

export async function getApplication(db: Db, ownerUserId: number, id: number): Promise<ApplicationView> {
  const apps = await db
    .select(appColumns)
    .from(oauthApplications)
    .where(and(eq(oauthApplications.id, id), eq(oauthApplications.ownerUserId, ownerUserId)));
  if (apps.length === 0) throw notFound("Application");
  return (await withOrigins(db, apps))[0];
}

/** Registers an application. The returned secret (confidential clients) is the only copy that will ever exist. */
export async function createApplication(
  db: Db,
  ownerUserId: number,
  input: ApplicationInput,
): Promise<{ application: ApplicationView; clientSecret: string | null }> {
  const parsed = ZApplicationInput.parse(input);
  const checked = checkApplicationFields(parsed, parsed.surface);
  if (!checked.ok) throw new AppError("invalid", "Please correct the highlighted fields.", checked.fieldErrors);
  const secret = parsed.clientType === "confidential" ? newClientSecret() : null;
  const now = new Date();
  const partner = parsed.surface === "partner";
  const id = await db.transaction(async (tx) => {
    const [app] = await tx
      .insert(oauthApplications)
      .values({
        ownerUserId,
        clientId: newClientId(),
        name: checked.value.name,
        surface: parsed.surface,
        clientType: parsed.clientType,
        clientSecretHash: secret?.hash ?? null,
        clientSecretStart: secret?.start ?? null,
        clientSecretCreatedAt: secret ? now : null,
        redirectUris: checked.value.redirectUris,
        scopes: checked.value.scopes,
        // Partner applications wait for an operator; the owner's own data and session apps do not.
        reviewStatus: partner ? "pending" : "not_required",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: oauthApplications.id });
    if (checked.value.embedOrigins.length) {
      await tx.insert(oauthApplicationOrigins).values(
        checked.value.embedOrigins.map((origin) => ({
          applicationId: app.id,
          origin,
          status: partner ? ("pending" as const) : ("approved" as const),
        })),
      );
    }
    return app.id;
  });
  return { application: await getApplication(db, ownerUserId, id), clientSecret: secret?.secret ?? null };
}

/**
 * Edits name, redirect URIs, embed origins and scopes (surface and client type
 * are fixed at registration). A reviewed partner application whose redirect
 * URIs or scopes change goes back to review; new partner origins wait for it.
 */
export async function updateApplication(db: Db, ownerUserId: number, id: number, input: ApplicationUpdate): Promise<ApplicationView> {
  const parsed = ZApplicationUpdate.parse(input);
  const current = await getApplication(db, ownerUserId, id);
  const checked = checkApplicationFields(parsed, current.surface);
  if (!checked.ok) throw new AppError("invalid", "Please correct the highlighted fields.", checked.fieldErrors);
  const partner = current.surface === "partner";
  const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
  const needsReview =
    partner && (!sameSet(current.redirectUris, checked.value.redirectUris) || !sameSet(current.scopes, checked.value.scopes));
  await db.transaction(async (tx) => {
    await tx
      .update(oauthApplications)
      .set({
        name: checked.value.name,
        redirectUris: checked.value.redirectUris,
        scopes: checked.value.scopes,
        updatedAt: new Date(),
        ...(needsReview ? { reviewStatus: "pending" as const, reviewedAt: null, reviewedByUserId: null, reviewNote: null } : {}),
      })
      .where(and(eq(oauthApplications.id, id), eq(oauthApplications.ownerUserId, ownerUserId)));
    const keep = new Set(checked.value.embedOrigins);
    const removed = current.origins.filter((o) => !keep.has(o.origin)).map((o) => o.id);
    if (removed.length) await tx.delete(oauthApplicationOrigins).where(inArray(oauthApplicationOrigins.id, removed));
    const existing = new Set(current.origins.map((o) => o.origin));
    const added = checked.value.embedOrigins.filter((o) => !existing.has(o));
    if (added.length) {
      await tx
        .insert(oauthApplicationOrigins)
        .values(added.map((origin) => ({ applicationId: id, origin, status: partner ? ("pending" as const) : ("approved" as const) })));
    }
  });
  return getApplication(db, ownerUserId, id);
}

/** Replaces the secret at once: the old one stops working with the next request. */
export async function rotateClientSecret(
  db: Db,
  ownerUserId: number,
  id: number,
): Promise<{ clientSecret: string; clientSecretStart: string }> {
  const current = await getApplication(db, ownerUserId, id);
  if (current.clientType !== "confidential") throw new AppError("invalid", "Public clients have no secret");
  const secret = newClientSecret();
  await db
    .update(oauthApplications)
    .set({ clientSecretHash: secret.hash, clientSecretStart: secret.start, clientSecretCreatedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(oauthApplications.id, id), eq(oauthApplications.ownerUserId, ownerUserId)));
  return { clientSecret: secret.secret, clientSecretStart: secret.start };
}

/** Deletes the application after revoking every grant and token it holds. */
export async function deleteApplication(db: Db, ownerUserId: number, id: number): Promise<void> {
  await getApplication(db, ownerUserId, id);
  await revokeAllGrantsOfApplication(db, id);
  await db.delete(oauthApplications).where(and(eq(oauthApplications.id, id), eq(oauthApplications.ownerUserId, ownerUserId)));
}
