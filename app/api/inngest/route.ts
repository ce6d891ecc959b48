import { NextResponse, type NextRequest } from "next/server";
import { serve } from "inngest/next";
import { inngest, inngestFunctions } from "@/inngest";
import { getEnv } from "@/server/config/env";

/**
 * The Inngest endpoint: a real Inngest server syncs the functions here (PUT)
 * and calls them step by step (POST); GET answers the SDK's introspection.
 * Without Inngest configuration the embedded runner executes the functions
 * in-process and nothing outside may call them: 404.
 */
const handler = serve({ client: inngest, functions: inngestFunctions });

type RouteHandler = (request: NextRequest, context: unknown) => Promise<Response>;

function whenInngestConfigured(method: RouteHandler): RouteHandler {
  return async (request, context) => {
    if (getEnv().jobsRunner !== "inngest") {
      return NextResponse.json(
        { error: "not_found", message: "Background jobs run in-process; no Inngest server is configured (docs/jobs.md)." },
        { status: 404 },
      );
    }
    return method(request, context);
  };
}

export const GET = whenInngestConfigured(handler.GET);
export const POST = whenInngestConfigured(handler.POST);
export const PUT = whenInngestConfigured(handler.PUT);
