import { interactionRoute } from "@/server/auth/oauth/interaction-route";

// The interaction URL oidc-provider sends the browser to (docs/oauth.md "Sign-in and consent").
export const dynamic = "force-dynamic";
export const { GET, POST } = interactionRoute;
