import { z } from "zod";
import { getDb, pingDb } from "../../db/client";
import type { OperationSpec } from "../openapi/build";

/**
 * GET /health: owned by both APIs, no credential. The body satisfies the
 * results API ({status}) and the Data API envelope ({data: {status}}) at once,
 * and both documents carry this one declaration.
 */
const ZHealthy = z.object({
  status: z.literal("ok").describe("the results API's member"),
  data: z.object({ status: z.literal("ok") }).describe("the same, in the Data API envelope"),
});
const ZUnavailable = z.object({ status: z.literal("unavailable"), data: z.object({ status: z.literal("unavailable") }) });

export const HEALTH_CHECK_SPEC = (tag: string, extensions?: Record<string, unknown>): OperationSpec => ({
  method: "get",
  path: "/health",
  operationId: "health",
  summary: "Service health; needs no credential (shared by both APIs)",
  tags: [tag],
  security: [],
  ...(extensions ? { extensions } : {}),
  responses: {
    200: { description: "service healthy", schema: ZHealthy },
    503: { description: "database unreachable", schema: ZUnavailable },
  },
});

export const healthCheck = {
  method: "get" as const,
  async handle(): Promise<Response> {
    const healthy = await pingDb(getDb()).catch(() => false);
    const status = healthy ? "ok" : "unavailable";
    return Response.json({ status, data: { status } }, { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } });
  },
};
