import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { webhookEvents } from "../../server/db/schema";
import { getSessionUser, type SessionUser } from "../../server/users/users";
import type { WebhookEventType } from "../../server/webhooks/event-types";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { issueAccessToken, makeOwnerAndApp } from "./oauth-fixtures";

/**
 * A person who authorized an application with `scopes` and an endpoint for
 * `eventTypes`: every such event of theirs is written as a `webhook_events`
 * row, which `countEvents` counts (the endpoint never answers; nothing is
 * delivered unless a test drains the runs).
 */
export async function ownerWithListeningApp(
  db: Db,
  scopes: string[],
  eventTypes: WebhookEventType[],
): Promise<{ owner: SessionUser; applicationId: number }> {
  const made = await makeOwnerAndApp(db, { scopes: ["openid", "sessions:read", "trainings:read"] });
  const owner = (await getSessionUser(db, made.owner.id))!;
  await createEndpoint(db, owner.id, made.application.id, { url: "http://127.0.0.1:9/hooks", eventTypes });
  await issueAccessToken(db, {
    userId: owner.id,
    applicationId: made.application.id,
    clientId: made.application.clientId,
    scopes,
    audience: "https://results.example/api/v1",
    lifetimeSeconds: 3600,
  });
  return { owner, applicationId: made.application.id };
}

/** How many events of `type` the application got about the resource `ids` names, e.g. `["training_id", 7]`. */
export async function countEvents(db: Db, applicationId: number, type: WebhookEventType, [name, id]: [string, number]): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.applicationId, applicationId),
        eq(webhookEvents.type, type),
        sql`${webhookEvents.payload}->'data'->>${name} = ${String(id)}`,
      ),
    );
  return n;
}
