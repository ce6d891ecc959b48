import { NextResponse } from "next/server";
import { getEnv } from "@/server/config/env";
import { getDb } from "@/server/db/client";
import { clientIp } from "@/server/net/client-ip";
import { abortInteraction, nextStep, submitConsent, submitSignIn } from "@/server/auth/oauth/interactions";
import { consumeAll, OAUTH_LIMITS } from "@/server/auth/oauth/rate-limits";
import { SEPARATE_CONSENT_SCOPES } from "@/server/auth/oauth/scopes";

// The interaction URL oidc-provider sends the browser to (docs/oauth.md "Sign-in and consent").
// GET decides the step; the sign-in and consent pages post their forms back here.
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ uid: string }> };

const SECURITY_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

function seeOther(location: string): NextResponse {
  const response = NextResponse.redirect(new URL(location, getEnv().appUrl), 303);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

const pagePath = (uid: string, page: "signin" | "consent", query = "") => `/oauth/interaction/${encodeURIComponent(uid)}/${page}${query}`;

export async function GET(request: Request, context: RouteContext) {
  const { uid } = await context.params;
  const step = await nextStep(getDb(), request.headers, uid);
  switch (step.kind) {
    case "expired":
      return seeOther("/oauth/expired");
    case "redirect":
      return seeOther(step.location);
    case "signin":
      return seeOther(pagePath(uid, "signin"));
    case "consent":
      return seeOther(pagePath(uid, "consent"));
  }
}

export async function POST(request: Request, context: RouteContext) {
  const { uid } = await context.params;
  // Forms are only posted from our own pages. The interaction cookie is SameSite=Lax, so a
  // cross-site post would not find the interaction anyway; this refuses it outright. (These
  // pages send no referrer, so browsers send "Origin: null"; Sec-Fetch-Site still says same-origin.)
  const fetchSite = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const crossSite = (fetchSite !== null && fetchSite !== "same-origin") || (origin !== null && origin !== "null" && origin !== new URL(getEnv().appUrl).origin);
  if (crossSite) return new Response("Forbidden", { status: 403, headers: SECURITY_HEADERS });
  const form = await request.formData().catch(() => null);
  if (!form) return new Response("Bad request", { status: 400, headers: SECURITY_HEADERS });
  const db = getDb();
  const action = form.get("action");

  if (action === "signin") {
    const limited = await consumeAll(db, [[`oauth-signin:interaction:${uid}`, OAUTH_LIMITS.signInPerInteraction]]);
    if (!limited.allowed) return tooManyAttempts(uid, limited.retryAfterSeconds, limited.headers);
    const credentials = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? ""), clientAddress: clientIp(request.headers) };
    const outcome = await submitSignIn(db, request.headers, uid, credentials);
    if (!outcome.ok) {
      if (outcome.code === "expired") return seeOther("/oauth/expired");
      // The sign-in throttle's per-address lock (the same for the site's sign-in): 429, as for the rate limit above.
      if (outcome.code === "throttled" && outcome.scope === "address") return tooManyAttempts(uid, outcome.retryAfterSeconds, { "Retry-After": String(outcome.retryAfterSeconds) });
      const query = outcome.code === "throttled" ? `?error=throttled&minutes=${Math.ceil(outcome.retryAfterSeconds / 60)}` : outcome.code === "disabled" ? "?error=disabled" : "?error=invalid";
      return seeOther(pagePath(uid, "signin", query));
    }
    const response = seeOther(outcome.location);
    response.cookies.set(outcome.cookie.name, outcome.cookie.value, outcome.cookie.options);
    return response;
  }

  if (action === "consent") {
    const ticked = form.getAll("separate_scope").map(String).filter((s) => SEPARATE_CONSENT_SCOPES.includes(s as never));
    const outcome = await submitConsent(db, request.headers, uid, { allow: form.get("decision") === "allow", tickedSeparateScopes: ticked });
    return seeOther(outcome.ok ? outcome.location : "/oauth/expired");
  }

  if (action === "abort") {
    const outcome = await abortInteraction(request.headers, uid);
    return seeOther(outcome.ok ? outcome.location : "/oauth/expired");
  }
  return new Response("Bad request", { status: 400, headers: SECURITY_HEADERS });
}

function tooManyAttempts(uid: string, retryAfterSeconds: number, headers: Record<string, string>): Response {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Too many sign-in attempts</title></head><body><main style="font-family:system-ui,sans-serif;max-width:440px;margin:3rem auto"><h1>Too many sign-in attempts</h1><p>Wait ${minutes} minute${minutes === 1 ? "" : "s"} and <a href="${pagePath(uid, "signin")}">try again</a>.</p></main></body></html>`;
  return new Response(html, {
    status: 429,
    headers: { ...SECURITY_HEADERS, ...headers, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "frame-ancestors 'none'" },
  });
}
