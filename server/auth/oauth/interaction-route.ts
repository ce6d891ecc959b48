import { NextResponse } from "next/server";
import { getEnv } from "../../config/env";
import { getDb } from "../../db/client";
import { clientIp } from "../../net/client-ip";
import { readBoundedBody } from "../../net/bounded-body";
import { isCrossSiteRequest } from "../../net/same-origin";
import { throttledMessage } from "../next-auth";
import { abortInteraction, nextStep, submitConsent, submitSignIn } from "./interactions";
import { tooManyAttemptsPage } from "./provider-pages";
import { consumeAll, OAUTH_LIMITS } from "./rate-limits";
import { SEPARATE_CONSENT_SCOPES } from "./scopes";

/**
 * The interaction URL oidc-provider sends the browser to (docs/oauth.md
 * "Sign-in and consent"): GET decides the step, the sign-in and consent
 * pages post their forms back here. The route file only names these.
 */
type RouteContext = { params: Promise<{ uid: string }> };

const SECURITY_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
/** Far above the sign-in and consent forms (an email, a password, a few scopes). */
const MAX_FORM_BYTES = 16 * 1024;

function seeOther(location: string): NextResponse {
  const response = NextResponse.redirect(new URL(location, getEnv().appUrl), 303);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

const plain = (status: 400 | 403, text: string) => new Response(text, { status, headers: SECURITY_HEADERS });
const pagePath = (uid: string, page: "signin" | "consent", query = "") => `/oauth/interaction/${encodeURIComponent(uid)}/${page}${query}`;

function tooManyAttempts(uid: string, message: string, headers: Record<string, string>): Response {
  return new Response(tooManyAttemptsPage(message, pagePath(uid, "signin")), {
    status: 429,
    headers: {
      ...SECURITY_HEADERS,
      ...headers,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "frame-ancestors 'none'",
    },
  });
}

/** The posted form (urlencoded or multipart, as a browser sends it), read no further than MAX_FORM_BYTES; null when unreadable. */
async function readForm(request: Request): Promise<FormData | null> {
  const bytes = await readBoundedBody(request, MAX_FORM_BYTES);
  if (!bytes) return null;
  return new Response(new Uint8Array(bytes), { headers: { "Content-Type": request.headers.get("content-type") ?? "" } })
    .formData()
    .catch(() => null);
}

async function showStep(request: Request, context: RouteContext): Promise<Response> {
  const { uid } = await context.params;
  const step = await nextStep(getDb(), request.headers, uid);
  if (step.kind === "expired") return seeOther("/oauth/expired");
  if (step.kind === "redirect") return seeOther(step.location);
  return seeOther(pagePath(uid, step.kind));
}

async function signIn(request: Request, uid: string, form: FormData): Promise<Response> {
  const db = getDb();
  const limited = await consumeAll(db, [[`oauth-signin:interaction:${uid}`, OAUTH_LIMITS.signInPerInteraction]]);
  if (!limited.allowed) return tooManyAttempts(uid, throttledMessage("account", limited.retryAfterSeconds), limited.headers);
  const credentials = {
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    clientAddress: clientIp(request.headers),
  };
  const outcome = await submitSignIn(db, request.headers, uid, credentials);
  if (!outcome.ok) {
    if (outcome.code === "expired") return seeOther("/oauth/expired");
    // The sign-in throttle's per-address lock (the same for the site's sign-in): 429, as for the rate limit above.
    if (outcome.code === "throttled" && outcome.scope === "address") {
      return tooManyAttempts(uid, throttledMessage("address", outcome.retryAfterSeconds), {
        "Retry-After": String(outcome.retryAfterSeconds),
      });
    }
    const query =
      outcome.code === "throttled"
        ? `?error=throttled&minutes=${Math.ceil(outcome.retryAfterSeconds / 60)}`
        : outcome.code === "disabled"
          ? "?error=disabled"
          : "?error=invalid";
    return seeOther(pagePath(uid, "signin", query));
  }
  const response = seeOther(outcome.location);
  response.cookies.set(outcome.cookie.name, outcome.cookie.value, outcome.cookie.options);
  return response;
}

async function submitForm(request: Request, context: RouteContext): Promise<Response> {
  const { uid } = await context.params;
  // Forms are only posted from our own pages. The interaction cookie is SameSite=Lax, so a
  // cross-site post would not find the interaction anyway; this refuses it outright.
  if (isCrossSiteRequest(request.headers, getEnv().appUrl)) return plain(403, "Forbidden");
  const form = await readForm(request);
  const action = form?.get("action");
  if (form && action === "signin") return signIn(request, uid, form);
  if (form && action === "consent") {
    const ticked = form
      .getAll("separate_scope")
      .map(String)
      .filter((s) => SEPARATE_CONSENT_SCOPES.includes(s as never));
    const outcome = await submitConsent(getDb(), request.headers, uid, {
      allow: form.get("decision") === "allow",
      tickedSeparateScopes: ticked,
    });
    return seeOther(outcome.ok ? outcome.location : "/oauth/expired");
  }
  if (form && action === "abort") {
    const outcome = await abortInteraction(request.headers, uid);
    return seeOther(outcome.ok ? outcome.location : "/oauth/expired");
  }
  return plain(400, "Bad request");
}

export const interactionRoute = { GET: showStep, POST: submitForm };
