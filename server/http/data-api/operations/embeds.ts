import { z } from "zod";
import { checkEmbedOrigin } from "../../../applications/application-rules";
import { getEnv } from "../../../config/env";
import { consumeArtifactToken, renewLease, revokeEmbed } from "../../../embeds/artifacts-and-leases";
import { createEmbed } from "../../../embeds/create-embed";
import { gzipArtifactResponse } from "../../../replay/artifact-response";
import type { OperationSpec } from "../../openapi/build";
import { defineOperation, pathId, ZErrorBody, type DataApiContext, type DataApiOperation } from "../define-operation";
import { defineTokenOperation } from "../define-token-operation";
import { DataApiError, dataApiNotFound } from "../errors";
import { INT4_MAX } from "../../../contract/values";

/**
 * Replay embeds (data-api.md "Replay embeds", docs/replay.md): creating an
 * embed needs a token; the launch (app/api/v1/svcsim/launch/[token]/page.tsx),
 * the artifacts and the lease need none, only their own single-purpose
 * credentials (server/http/data-api/define-token-operation.ts), and answer
 * with the Data API's error body.
 */
const EMBED_SURFACES = ["data", "partner"] as const;

export const ZEmbedBody = z
  .object({
    session_ids: z
      .array(z.number().int().min(1).max(INT4_MAX))
      .min(1, "session_ids: 1 to 9 sessions")
      .max(9, "session_ids: 1 to 9 sessions")
      .refine((ids) => new Set(ids).size === ids.length, "session_ids: each session at most once")
      .describe("sessions to show, one lane each in this order; 1 to 9, unique, each readable with this token"),
    origin: z.string().max(2048).describe("exact HTTPS origin already approved for this application, e.g. https://club.example"),
  })
  .strict();

export const ZEmbed = z.object({
  id: z.number().int().describe("embed identifier (DELETE /svcsim/embeds/{embed_id} revokes it)"),
  launch_url: z.string().describe("open once, within two minutes, as an iframe's src on the origin; holds no OAuth token"),
  launch_expires_at: z.string().describe("ISO 8601, UTC"),
  origin: z.string(),
  session_ids: z.array(z.number().int()),
});

export const createReplayEmbed = defineOperation({
  method: "post",
  path: "/svcsim/embeds",
  operationId: "create_replay_embed",
  summary: "Creates a replay embed of 1 to 9 sessions for an approved origin: a single-use launch URL valid two minutes",
  description:
    "A malformed or non-HTTPS origin is 400; a well-formed origin not approved for this application is 403 origin_not_approved. A session that does not exist or lies outside the token's subject boundary is 404. A session without a valid schema-1 replay artifact is 409 replay_artifact_unavailable, naming the session.",
  tag: "Replay embeds",
  scopes: ["sessions:read", "svcsim:embed"],
  surfaces: EMBED_SURFACES,
  response: ZEmbed,
  successStatus: 201,
  errors: {
    403: "insufficient_scope: the token lacks sessions:read or svcsim:embed; or origin_not_approved: the origin is not approved for this application",
    409: "replay_artifact_unavailable: a session's replay artifact is missing (not built yet, or processing failed) or invalid; the description names the session",
  },
  body: ZEmbedBody.describe("embed creation body (data-api.md)"),
  handler: async (ctx: DataApiContext, { body }) => {
    const origin = checkEmbedOrigin(body.origin);
    if (!origin.ok || origin.value !== body.origin)
      throw new DataApiError(
        "invalid_request",
        `origin: must be an exact https origin such as https://club.example${origin.ok ? ` (here: ${origin.value})` : ""}`,
      );
    const created = await createEmbed(ctx.db, {
      audience: { subjectId: ctx.subjectId, surface: ctx.surface, applicationId: ctx.applicationId },
      grantId: ctx.grantId,
      origin: origin.value,
      sessionIds: body.session_ids,
      now: ctx.now,
    });
    if (!created.ok) {
      if (created.code === "origin_not_approved")
        throw new DataApiError("origin_not_approved", `origin: ${origin.value} is not an approved embed origin of this application`);
      if (created.code === "session_not_found") throw dataApiNotFound();
      throw new DataApiError(
        "replay_artifact_unavailable",
        `Session ${created.sessionId}: its replay artifact is ${created.reason === "missing" ? "not available (not built yet, or processing failed); try again later" : "invalid"}`,
      );
    }
    return {
      status: 201,
      data: {
        id: created.embedId,
        launch_url: `${getEnv().appUrl}/api/v1/svcsim/launch/${created.launchToken}`,
        launch_expires_at: created.launchExpiresAt.toISOString(),
        origin: origin.value,
        session_ids: body.session_ids,
      },
    };
  },
});

export const deleteReplayEmbed = defineOperation({
  method: "delete",
  path: "/svcsim/embeds/{embed_id}",
  operationId: "revoke_replay_embed",
  summary: "Revokes an embed of this application: its unused launch and artifact URLs and its lease end at once",
  tag: "Replay embeds",
  scopes: ["sessions:read", "svcsim:embed"],
  surfaces: EMBED_SURFACES,
  pathParams: { embed_id: pathId("embed_id").describe("embed identifier") },
  response: null,
  successStatus: 204,
  handler: async (ctx, { params }) => {
    if (
      !(await revokeEmbed(ctx.db, { embedId: params.embed_id, subjectId: ctx.subjectId, applicationId: ctx.applicationId, now: ctx.now }))
    )
      throw dataApiNotFound();
    return { status: 204 };
  },
});

/**
 * GET /svcsim/artifacts/{token}: the stored gzip bytes unchanged, as a gzip
 * body (`Content-Type: application/gzip`, no Content-Encoding): the bytes
 * are the immutable artifact, not a transfer encoding a proxy may undo
 * (docs/replay.md "Artifact delivery").
 */
export const downloadReplayArtifact = defineTokenOperation({
  method: "get",
  path: "/svcsim/artifacts/{token}",
  operationId: "download_replay_artifact",
  summary: "One session's schema-1 replay artifact, once: a gzip body (application/gzip) holding the JSON",
  tag: "Replay embeds",
  surfaces: EMBED_SURFACES,
  credential: "path",
  pathParams: { token: z.string().describe("single-use artifact token from the player page") },
  response: null,
  responseContentType: "application/gzip",
  errors: { 404: "not_found: unknown, used or expired token, or a revoked embed" },
  handler: async (ctx, { params }) => {
    const artifact = await consumeArtifactToken(ctx.db, params.token);
    if (!artifact) throw new DataApiError("not_found", "Unknown, used or expired artifact URL");
    return gzipArtifactResponse(artifact);
  },
});

export const ZLeaseBody = z.object({ lease: z.string().max(256).describe("the opaque lease credential issued at launch") }).strict();
export const ZLease = z.object({ expires_at: z.string().describe("ISO 8601, UTC: ten minutes from this renewal") });

/** POST /svcsim/leases: the body is the credential; a missing, malformed, unknown, expired or revoked one is 401. */
export const renewReplayLease = defineTokenOperation({
  method: "post",
  path: "/svcsim/leases",
  operationId: "renew_replay_lease",
  summary: "Renews the player's lease for ten minutes",
  tag: "Replay embeds",
  surfaces: EMBED_SURFACES,
  credential: "body",
  jsonBody: ZLeaseBody,
  response: ZLease,
  handler: async (ctx, { body }) => {
    const renewed = await renewLease(ctx.db, body.lease);
    if (!renewed) throw new DataApiError("invalid_token", "The lease credential is invalid, expired or revoked");
    return { data: { expires_at: renewed.expiresAt.toISOString() } };
  },
});

/** A token that is not valid percent-encoded UTF-8 never reaches the page (proxy.ts). */
const UNDECODABLE_PATH = {
  description: "invalid_request: the path is not valid percent-encoded UTF-8",
  schema: ZErrorBody,
  headers: ["X-Request-Id"],
};

/** GET /svcsim/launch/{token} is a page (app/api/v1/svcsim/launch/[token]/page.tsx) answering HTML, not a kernel operation: its entry in the document is declared here. */
export const LAUNCH_REPLAY_EMBED_SPEC: OperationSpec = {
  method: "get",
  path: "/svcsim/launch/{token}",
  operationId: "launch_replay_embed",
  summary: "The origin-restricted replay player (iframe navigation); first use within two minutes only",
  description:
    "Answers HTML. `Content-Security-Policy: frame-ancestors <the embed's origin>`. Only a browser's iframe navigation from the approved origin consumes the launch (`Sec-Fetch-Dest: iframe`, `Sec-Fetch-Mode: navigate`, a `Sec-Fetch-Site` that fits the origin, and its origin in `Referer` when one is sent); any other request (a plain client, a link preview, a top-level page, another site's frame) is the same 404 and leaves the launch usable. This guards against accidental consumption, not a crafted client. Unknown, used or expired tokens, and embeds whose grant or embed was revoked, are a small HTML 404 page.",
  tags: ["Replay embeds"],
  security: [],
  extensions: { "x-scopes": [], "x-surfaces": [...EMBED_SURFACES] },
  pathParams: [{ name: "token", description: "launch token from launch_url", schema: z.string() }],
  responses: {
    200: { description: "the player page", contentType: "text/html" },
    400: UNDECODABLE_PATH,
    404: {
      description: "unknown, used, expired or revoked launch, or a request that is not the approved origin's frame navigation",
      contentType: "text/html",
    },
  },
};

export const embedOperations: DataApiOperation[] = [createReplayEmbed, deleteReplayEmbed, downloadReplayArtifact, renewReplayLease];
