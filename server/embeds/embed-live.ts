import { sql, type SQL } from "drizzle-orm";
import { replayEmbeds } from "../db/schema";

/** Launch validity (data-api.md "Limits"): two minutes, single use. */
export const LAUNCH_TTL_MS = 2 * 60_000;
/** Lease validity (data-api.md "Limits"): ten minutes per renewal, revocable. */
export const LEASE_TTL_MS = 10 * 60_000;
/** Artifact URLs are short-lived: the player fetches them right after the launch. */
export const ARTIFACT_TOKEN_TTL_MS = 2 * 60_000;

/**
 * The one rule of when an embed may still be used, checked inside every
 * launch, artifact and lease statement: not revoked itself, its grant neither
 * revoked nor expired (DELETE /authorization, token revocation, connected
 * apps, an application rejected on review), and its origin still approved
 * for its application. Revoking a grant therefore needs no extra step to end
 * its embeds: their unused launch and artifact tokens and their leases fail
 * from that moment (docs/replay.md "Revocation").
 */
export function embedLive(now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`(${replayEmbeds.revokedAt} is null
    and exists (select 1 from oauth_grants g where g.grant_id = ${replayEmbeds.grantId} and g.revoked_at is null and g.expires_at > ${at})
    and exists (select 1 from oauth_application_origins o where o.application_id = ${replayEmbeds.applicationId} and o.origin = ${replayEmbeds.origin} and o.status = 'approved'))`;
}

export const timestampSql = (date: Date) => sql`${date.toISOString()}::timestamptz`;
