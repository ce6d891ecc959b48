import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { oauthApplicationOrigins, oauthApplications, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import { revokeAllGrantsOfApplication } from "../auth/oauth/grants";
import { appColumns, type ApplicationView } from "./applications";

/**
 * Operator review (docs/oauth.md "Operator review"): partner applications and
 * their embed origins are approved or rejected here, and confidential clients
 * are allowed (or not) to call the introspection endpoint.
 */
export interface ReviewListItem {
  id: number;
  name: string;
  clientId: string;
  surface: ApplicationView["surface"];
  clientType: ApplicationView["clientType"];
  reviewStatus: ApplicationView["reviewStatus"];
  introspectionAllowed: boolean;
  ownerEmail: string;
  ownerName: string;
  pendingOrigins: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Every application, partner applications awaiting review first. */
export async function listApplicationsForOperator(db: Db, limit = 500): Promise<ReviewListItem[]> {
  return db
    .select({
      ...appColumns,
      reviewedAt: oauthApplications.reviewedAt,
      ownerEmail: users.email,
      ownerName: users.name,
      pendingOrigins: sql<number>`(select count(*)::int from ${oauthApplicationOrigins} o where o.application_id = ${oauthApplications.id} and o.status = 'pending')`,
    })
    .from(oauthApplications)
    .innerJoin(users, eq(users.id, oauthApplications.ownerUserId))
    .orderBy(
      sql`case when ${oauthApplications.reviewStatus} = 'pending' then 0 else 1 end`,
      desc(oauthApplications.updatedAt),
      desc(oauthApplications.id),
    )
    .limit(limit);
}

export interface ReviewDetail extends Omit<ApplicationView, "origins"> {
  ownerEmail: string;
  ownerName: string;
  reviewedAt: Date | null;
  origins: { id: number; origin: string; status: "pending" | "approved" | "rejected"; reviewedAt: Date | null }[];
}

export async function getApplicationForOperator(db: Db, id: number): Promise<ReviewDetail> {
  const [app] = await db
    .select({
      ...appColumns,
      reviewedAt: oauthApplications.reviewedAt,
      ownerEmail: users.email,
      ownerName: users.name,
    })
    .from(oauthApplications)
    .innerJoin(users, eq(users.id, oauthApplications.ownerUserId))
    .where(eq(oauthApplications.id, id));
  if (!app) throw notFound("Application");
  const origins = await db
    .select({
      id: oauthApplicationOrigins.id,
      origin: oauthApplicationOrigins.origin,
      status: oauthApplicationOrigins.status,
      reviewedAt: oauthApplicationOrigins.reviewedAt,
    })
    .from(oauthApplicationOrigins)
    .where(eq(oauthApplicationOrigins.applicationId, id))
    .orderBy(asc(oauthApplicationOrigins.origin));
  return { ...app, origins };
}

export const ZReviewDecision = z.object({
  id: z.number().int().positive(),
  decision: z.enum(["approved", "rejected"]),
  note: z.string().trim().max(500, "At most 500 characters").optional(),
});

/** Approves or rejects a partner application. Rejecting one that was in use revokes its grants. */
export async function reviewApplication(db: Db, operatorUserId: number, input: z.input<typeof ZReviewDecision>): Promise<void> {
  const { id, decision, note } = ZReviewDecision.parse(input);
  const app = await getApplicationForOperator(db, id);
  if (app.surface !== "partner") throw new AppError("invalid", "Only partner applications are reviewed");
  await db
    .update(oauthApplications)
    .set({ reviewStatus: decision, reviewNote: note || null, reviewedAt: new Date(), reviewedByUserId: operatorUserId })
    .where(eq(oauthApplications.id, id));
  if (decision === "rejected") await revokeAllGrantsOfApplication(db, id);
}

export const ZOriginDecision = z.object({
  applicationId: z.number().int().positive(),
  originId: z.number().int().positive(),
  decision: z.enum(["approved", "rejected"]),
});

export async function reviewOrigin(db: Db, input: z.input<typeof ZOriginDecision>): Promise<void> {
  const { applicationId, originId, decision } = ZOriginDecision.parse(input);
  const updated = await db
    .update(oauthApplicationOrigins)
    .set({ status: decision, reviewedAt: new Date() })
    .where(and(eq(oauthApplicationOrigins.id, originId), eq(oauthApplicationOrigins.applicationId, applicationId)))
    .returning({ id: oauthApplicationOrigins.id });
  if (updated.length === 0) throw notFound("Origin");
}

export const ZIntrospectionSetting = z.object({ id: z.number().int().positive(), allowed: z.boolean() });

/** Only confidential clients can be allowed: introspection needs client authentication. */
export async function setIntrospectionAllowed(db: Db, input: z.input<typeof ZIntrospectionSetting>): Promise<void> {
  const { id, allowed } = ZIntrospectionSetting.parse(input);
  const app = await getApplicationForOperator(db, id);
  if (allowed && app.clientType !== "confidential") throw new AppError("invalid", "Public clients cannot use introspection");
  await db.update(oauthApplications).set({ introspectionAllowed: allowed }).where(eq(oauthApplications.id, id));
}
