import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { oauthApplicationOrigins, replayEmbeds, results } from "../db/schema";
import { readReplayArtifact } from "../replay/read-replay-artifact";
import { sessionReadable, type SessionAudience } from "../sessions/session-boundary";
import { LAUNCH_TTL_MS } from "./embed-live";
import { hashEmbedToken, newEmbedToken } from "./tokens";

export interface CreateEmbedInput {
  audience: SessionAudience;
  /** The grant of the calling token: revoking it ends the embed. */
  grantId: string;
  /** Already in canonical origin form (checked by the operation). */
  origin: string;
  /** Lane order; 1 to 9, unique (checked by the operation). */
  sessionIds: number[];
  now: Date;
}

export type CreateEmbedResult =
  | { ok: true; embedId: number; launchToken: string; launchExpiresAt: Date }
  | { ok: false; code: "origin_not_approved" }
  | { ok: false; code: "session_not_found" }
  | { ok: false; code: "artifact_unavailable"; sessionId: number; reason: "missing" | "invalid" };

/**
 * POST /svcsim/embeds (data-api.md "Replay embeds"): every session must lie
 * inside the token's subject boundary and have a valid schema-1 artifact;
 * the origin must be approved for the calling application. Returns the
 * launch token once; only its hash is stored.
 */
export async function createEmbed(db: Db, input: CreateEmbedInput): Promise<CreateEmbedResult> {
  const { audience, now } = input;
  const [approved] = await db
    .select({ id: oauthApplicationOrigins.id })
    .from(oauthApplicationOrigins)
    .where(
      and(
        eq(oauthApplicationOrigins.applicationId, audience.applicationId),
        eq(oauthApplicationOrigins.origin, input.origin),
        eq(oauthApplicationOrigins.status, "approved"),
      ),
    );
  if (!approved) return { ok: false, code: "origin_not_approved" };

  const readable = await db
    .select({ id: results.id })
    .from(results)
    .where(and(inArray(results.id, input.sessionIds), sessionReadable(audience)));
  // Absent and outside the boundary are one answer, for every id of the list.
  if (readable.length !== input.sessionIds.length) return { ok: false, code: "session_not_found" };

  for (const sessionId of input.sessionIds) {
    const read = await readReplayArtifact(db, sessionId);
    if (!read.ok) return { ok: false, code: "artifact_unavailable", sessionId, reason: read.reason };
  }

  const launchToken = newEmbedToken();
  const launchExpiresAt = new Date(now.getTime() + LAUNCH_TTL_MS);
  const [row] = await db
    .insert(replayEmbeds)
    .values({
      applicationId: audience.applicationId,
      grantId: input.grantId,
      subjectUserId: audience.subjectId,
      origin: input.origin,
      sessionIds: input.sessionIds,
      launchTokenHash: hashEmbedToken(launchToken),
      launchExpiresAt,
      createdAt: now,
    })
    .returning({ id: replayEmbeds.id });
  return { ok: true, embedId: row.id, launchToken, launchExpiresAt };
}
