import { handleOAuthRequest } from "@/server/auth/oauth/handle-request";

// oidc-provider (docs/oauth.md "Mounting"): every /api/oauth/* path, and the
// discovery documents next.config.mjs rewrites here, go to the provider as a
// Node request with the raw body.
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ oidc: string[] }> };

async function handler(request: Request, context: RouteContext): Promise<Response> {
  const { oidc } = await context.params;
  return handleOAuthRequest(request, oidc);
}

export { handler as GET, handler as POST, handler as OPTIONS, handler as DELETE, handler as HEAD };
