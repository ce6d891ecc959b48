import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { replayArtifactTokens, replayEmbeds, results, vessels } from "../db/schema";
import type { ReplayModelClass } from "../replay/read-replay-artifact";
import { ARTIFACT_TOKEN_TTL_MS, embedLive, LEASE_TTL_MS, timestampSql } from "./embed-live";
import { mayConsumeLaunch, type LaunchRequest } from "./launch-request";
import { hashEmbedToken, isEmbedTokenShape, newEmbedToken } from "./tokens";

export interface LaunchedEmbed {
  /** The approved origin: the only frame ancestor the player page allows. */
  origin: string;
  /** The opaque lease credential (shown once, to the player page) and its first expiry. */
  lease: { credential: string; expiresAt: Date };
  /** One per session still present, in lane order, each with its single-use artifact token. */
  lanes: { lane: number; modelClass: ReplayModelClass; artifactToken: string; artifactExpiresAt: Date }[];
}

export interface LaunchEmbedOptions {
  token: string;
  /** How the request was made: only a frame navigation from the approved origin may consume (launch-request.ts). */
  request: LaunchRequest;
  /** This deployment's origin (APP_URL's), what the launch URL points at. */
  appOrigin: string;
  now?: Date;
}

/**
 * GET /svcsim/launch/{token} (data-api.md "States and transitions"): the
 * first use within two minutes of a live embed, made as a browser's frame
 * navigation from the embed's approved origin (`mayConsumeLaunch`), consumes
 * the launch, issues the lease and one artifact token per session; every
 * other use is null (404) and a request of the wrong kind leaves the launch
 * usable. One transaction: a launch is never consumed without its tokens.
 */
export async function launchEmbed(
  db: Db,
  { token, request, appOrigin, now = new Date() }: LaunchEmbedOptions,
): Promise<LaunchedEmbed | null> {
  if (!isEmbedTokenShape(token)) return null;
  const tokenHash = hashEmbedToken(token);
  const lease = newEmbedToken();
  const leaseExpiresAt = new Date(now.getTime() + LEASE_TTL_MS);
  return db.transaction(async (tx) => {
    // The origin never changes once created; deciding on it first touches nothing.
    const [target] = await tx.select({ origin: replayEmbeds.origin }).from(replayEmbeds).where(eq(replayEmbeds.launchTokenHash, tokenHash));
    if (!target || !mayConsumeLaunch(request, { approvedOrigin: target.origin, appOrigin })) return null;
    // Atomic single use: of concurrent openings exactly one sees launched_at null and sets it.
    const [embed] = await tx
      .update(replayEmbeds)
      .set({ launchedAt: now, leaseHash: hashEmbedToken(lease), leaseExpiresAt })
      .where(
        and(
          eq(replayEmbeds.launchTokenHash, tokenHash),
          isNull(replayEmbeds.launchedAt),
          gt(replayEmbeds.launchExpiresAt, timestampSql(now)),
          embedLive(now),
        ),
      )
      .returning({ id: replayEmbeds.id, origin: replayEmbeds.origin, sessionIds: replayEmbeds.sessionIds });
    if (!embed) return null;
    // A session deleted since the embed was created simply has no lane.
    const present = await tx
      .select({ id: results.id, modelClass: vessels.type })
      .from(results)
      .innerJoin(vessels, eq(vessels.id, results.vesselId))
      .where(inArray(results.id, embed.sessionIds))
      .orderBy(asc(results.id));
    const artifactExpiresAt = new Date(now.getTime() + ARTIFACT_TOKEN_TTL_MS);
    const lanes = embed.sessionIds.flatMap((sessionId, index) => {
      const row = present.find((p) => p.id === sessionId);
      return row
        ? [
            {
              sessionId,
              lane: index + 1,
              modelClass: row.modelClass as ReplayModelClass,
              artifactToken: newEmbedToken(),
              artifactExpiresAt,
            },
          ]
        : [];
    });
    if (lanes.length) {
      await tx.insert(replayArtifactTokens).values(
        lanes.map((l) => ({
          embedId: embed.id,
          resultId: l.sessionId,
          lane: l.lane,
          tokenHash: hashEmbedToken(l.artifactToken),
          expiresAt: artifactExpiresAt,
        })),
      );
    }
    return {
      origin: embed.origin,
      lease: { credential: lease, expiresAt: leaseExpiresAt },
      lanes: lanes.map(({ lane, modelClass, artifactToken }) => ({ lane, modelClass, artifactToken, artifactExpiresAt })),
    };
  });
}

/**
 * The origin a launch token belongs to, without consuming it: the player
 * page's `frame-ancestors` is set from it before the page renders (proxy.ts).
 * A used or expired token of a real embed still gets its own origin, so that
 * origin sees the 404 page; an unknown one gets none.
 */
export async function launchTokenOrigin(db: Db, token: string): Promise<string | null> {
  if (!isEmbedTokenShape(token)) return null;
  const [row] = await db
    .select({ origin: replayEmbeds.origin })
    .from(replayEmbeds)
    .where(eq(replayEmbeds.launchTokenHash, hashEmbedToken(token)));
  return row?.origin ?? null;
}

/** The launch page's CSP: only the embed's origin may frame it; 'none' for an unknown token. */
export async function launchFrameAncestors(db: Db, token: string): Promise<string> {
  const origin = await launchTokenOrigin(db, token);
  // Stored origins are canonical (checked at registration); anything else would never reach a header.
  return `frame-ancestors ${origin && /^https?:\/\/[a-z0-9.:[\]-]+$/i.test(origin) ? origin : "'none'"}`;
}
