import { randomUUID } from "node:crypto";
import { getDb, type Db } from "../../db/client";
import { parseKeyPairAuthorization } from "../../keys/key-pairs";
import { admitKeyPair } from "../admission";
import { rateLimitHeaders, type RateLimitPolicy } from "../../rate-limit/rate-limit";
import type { SessionUser } from "../../users/users";
import { errorBody, errorRetryHeaders, ResultsApiError, toResultsApiError } from "./errors";

/**
 * Rate limits per key (docs/results-api.md). Every request counts against the
 * general limit; the two CPU-intensive endpoints also have their own.
 */
export const RESULTS_API_LIMITS = {
  general: { limit: Number(process.env.RESULTS_API_RATE_LIMIT ?? 100), windowSeconds: 60 },
  upload: { limit: Number(process.env.RESULTS_API_UPLOAD_RATE_LIMIT ?? 10), windowSeconds: 60 },
  pdf: { limit: Number(process.env.RESULTS_API_PDF_RATE_LIMIT ?? 20), windowSeconds: 60 },
} satisfies Record<string, RateLimitPolicy>;

export interface KeyPairContext {
  db: Db;
  request: Request;
  url: URL;
  user: SessionUser;
  keyPairId: number;
  applicationId: number | null;
}

type Handler<P> = (ctx: KeyPairContext, params: P) => Promise<Response | { status?: number; body: unknown }>;

interface Options {
  /** "secret": Bearer PUBLIC.SECRET; "public": the bare public key is enough (reference endpoints). */
  auth: "secret" | "public";
  /** An extra, stricter per-key limit for CPU-intensive endpoints. */
  extraLimit?: "upload" | "pdf";
}

/**
 * The results API's one wrapper: credential, rate limits, error mapping,
 * request id. Handlers get a typed context and never format errors.
 */
export function withKeyPair<P = Record<string, never>>(options: Options, handler: Handler<P>) {
  return async (request: Request, routeContext?: { params: Promise<P> }): Promise<Response> => {
    const requestId = randomUUID();
    let limitHeaders: Record<string, string> = {};
    try {
      const db = getDb();
      const credential = parseKeyPairAuthorization(request.headers.get("authorization"));
      if (!credential) throw new ResultsApiError("unauthorized", "Authorization header missing: send Bearer <PUBLIC_KEY>.<SECRET_KEY>");
      const extraLimit = options.extraLimit;
      const { verified, decisions } = await admitKeyPair(db, credential, options.auth === "secret", (v) => [
        { bucket: `results:key:${v.keyPairId}`, policy: RESULTS_API_LIMITS.general },
        ...(extraLimit ? [{ bucket: `results-${extraLimit}:key:${v.keyPairId}`, policy: RESULTS_API_LIMITS[extraLimit] }] : []),
      ]);
      if (!verified.ok) {
        throw new ResultsApiError(
          "unauthorized",
          verified.code === "secret_required" ? "Secret key not supplied: this endpoint needs Bearer <PUBLIC_KEY>.<SECRET_KEY>" : "Public or secret key invalid",
        );
      }
      // The client must respect the tightest limit: a refusal first, else the fewest remaining.
      const decision = decisions.find((d) => !d.allowed) ?? decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
      limitHeaders = rateLimitHeaders(decision);
      if (!decision.allowed) {
        throw new ResultsApiError("rate_limited", `Rate limit exceeded for this key: ${decision.limit} requests per minute${options.extraLimit ? ` on this endpoint` : ""}`);
      }
      const params = routeContext ? await routeContext.params : ({} as P);
      const ctx: KeyPairContext = { db, request, url: new URL(request.url), user: verified.user, keyPairId: verified.keyPairId, applicationId: verified.applicationId };
      const result = await handler(ctx, params);
      const response = result instanceof Response ? result : Response.json(result.body, { status: result.status ?? 200 });
      for (const [name, value] of Object.entries({ ...limitHeaders, "X-Request-Id": requestId })) response.headers.set(name, value);
      return response;
    } catch (error) {
      const apiError = toResultsApiError(error);
      return Response.json(errorBody(apiError), {
        status: apiError.status,
        headers: {
          ...limitHeaders,
          ...errorRetryHeaders(apiError),
          "X-Request-Id": requestId,
          ...(apiError.status === 401 ? { "WWW-Authenticate": 'Bearer realm="results-api"' } : {}),
        },
      });
    }
  };
}
