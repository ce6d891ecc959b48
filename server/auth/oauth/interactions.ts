import type { InteractionDetails } from "oidc-provider";
import { eq } from "drizzle-orm";
import { getEnv } from "../../config/env";
import type { Db } from "../../db/client";
import { oauthApplications, sandboxAccounts, users } from "../../db/schema";
import { authenticate, type SessionUser } from "../../users/users";
import type { ThrottleScope } from "../sign-in-throttle";
import { mayAuthorize } from "./clients";
import { apiResource, TTL } from "./config";
import { recordConsent } from "./grants";
import { asNodeResponse, CollectingResponse, toNodeRequest } from "./node-bridge";
import { getProvider } from "./provider";
import { isApiScope, isOidcScope, isScope, SEPARATE_CONSENT_SCOPES, sortScopes, type Scope, type Surface } from "./scopes";
import { readSiteSession, siteSessionCookie, type CookieToSet } from "./site-session";

/**
 * Our side of an oidc-provider interaction (docs/oauth.md "Sign-in and
 * consent"): what the sign-in and consent pages show, and what their forms do.
 * Every function takes the request's headers: the interaction is found from
 * its signed cookie, and must be the one named in the URL.
 */

/** A node request carrying only what oidc-provider needs to find the interaction: its cookies. */
function nodeRequestFor(headers: Headers, uid: string) {
  return toNodeRequest({
    method: "GET",
    url: `/oauth/interaction/${uid}`,
    originalUrl: `/oauth/interaction/${uid}`,
    headers: new Headers({ cookie: headers.get("cookie") ?? "" }),
    body: null,
    publicOrigin: getEnv().appUrl,
  });
}

/** The interaction named in the URL, or null when it expired, is unknown, or belongs to another browser. */
export async function findInteraction(headers: Headers, uid: string): Promise<InteractionDetails | null> {
  const provider = await getProvider();
  try {
    const details = await provider.interactionDetails(nodeRequestFor(headers, uid), asNodeResponse(new CollectingResponse()));
    return details.uid === uid ? details : null;
  } catch {
    return null;
  }
}

async function finish(headers: Headers, uid: string, result: Record<string, unknown>): Promise<string> {
  const provider = await getProvider();
  return provider.interactionResult(nodeRequestFor(headers, uid), asNodeResponse(new CollectingResponse()), result, {
    mergeWithLastSubmission: true,
  });
}

export interface ApplicationSummary {
  id: number;
  clientId: string;
  name: string;
  surface: Surface;
  ownerUserId: number;
  ownerName: string;
  /** The owner's sandbox person for this application, who may authorize it too (docs/sandbox.md). */
  sandboxUserId: number | null;
  scopes: string[];
}

async function applicationByClientId(db: Db, clientId: string): Promise<ApplicationSummary | null> {
  const [row] = await db
    .select({
      id: oauthApplications.id,
      clientId: oauthApplications.clientId,
      name: oauthApplications.name,
      surface: oauthApplications.surface,
      ownerUserId: oauthApplications.ownerUserId,
      ownerName: users.name,
      sandboxUserId: sandboxAccounts.userId,
      scopes: oauthApplications.scopes,
    })
    .from(oauthApplications)
    .innerJoin(users, eq(users.id, oauthApplications.ownerUserId))
    .leftJoin(sandboxAccounts, eq(sandboxAccounts.applicationId, oauthApplications.id))
    .where(eq(oauthApplications.clientId, clientId));
  return row ?? null;
}

/** Scopes of the request the application may have: known, registered, in canonical order. */
function requestedScopes(details: InteractionDetails, app: ApplicationSummary): Scope[] {
  const registered = new Set(app.scopes);
  const asked = String(details.params.scope ?? "")
    .split(" ")
    .filter((s): s is Scope => isScope(s) && registered.has(s));
  return sortScopes(asked);
}

/** What the GET on /oauth/interaction/{uid} does next. */
export type InteractionStep = { kind: "expired" } | { kind: "redirect"; location: string } | { kind: "signin" } | { kind: "consent" };

/**
 * Login prompt: a signed-in site user continues without a password unless the
 * application asked for a fresh sign-in (prompt=login) or the sign-in is older
 * than max_age. Consent prompt: the consent page.
 */
export async function nextStep(db: Db, headers: Headers, uid: string, now = Date.now()): Promise<InteractionStep> {
  const details = await findInteraction(headers, uid);
  if (!details) return { kind: "expired" };
  if (details.prompt.name === "consent") return { kind: "consent" };
  if (details.prompt.name !== "login") return { kind: "expired" };
  const site = await readSiteSession(db, headers.get("cookie"));
  if (!site || freshSignInRequired(details, site.authTime, now)) return { kind: "signin" };
  const location = await finish(headers, uid, {
    login: { accountId: String(site.user.id), ...(site.authTime ? { ts: site.authTime } : {}) },
  });
  return { kind: "redirect", location };
}

/** prompt=login always wants a password; max_age wants one entered at most that many seconds ago. */
export function freshSignInRequired(
  details: Pick<InteractionDetails, "params" | "prompt">,
  authTime: number | null,
  now = Date.now(),
): boolean {
  const prompts = String(details.params.prompt ?? "").split(" ");
  if (prompts.includes("login") || details.prompt.reasons.includes("login_prompt")) return true;
  const maxAge = details.params.max_age;
  if (maxAge === undefined || maxAge === null || maxAge === "") return false;
  const seconds = Number(maxAge);
  // max_age=0 is prompt=login by another name (OpenID Connect Core §3.1.2.1).
  if (!Number.isFinite(seconds) || seconds <= 0) return true;
  return authTime === null || Math.floor(now / 1000) - authTime > seconds;
}

export interface SignInPageView {
  applicationName: string;
  forced: boolean;
}

export async function signInView(db: Db, headers: Headers, uid: string): Promise<SignInPageView | null> {
  const details = await findInteraction(headers, uid);
  if (!details || details.prompt.name !== "login") return null;
  const app = await applicationByClientId(db, String(details.params.client_id ?? ""));
  if (!app) return null;
  return {
    applicationName: app.name,
    forced:
      String(details.params.prompt ?? "")
        .split(" ")
        .includes("login") || details.params.max_age !== undefined,
  };
}

export type SignInOutcome =
  | { ok: true; location: string; cookie: CookieToSet }
  | { ok: false; code: "expired" | "invalid_credentials" | "disabled" }
  | { ok: false; code: "throttled"; scope: ThrottleScope; retryAfterSeconds: number };

/**
 * The sign-in form: checks the password with the site's own sign-in and its
 * one throttle (per account and per client address, docs/auth.md), and signs
 * in to the site too.
 */
export async function submitSignIn(
  db: Db,
  headers: Headers,
  uid: string,
  credentials: { email: string; password: string; clientAddress?: string },
): Promise<SignInOutcome> {
  const details = await findInteraction(headers, uid);
  if (!details || details.prompt.name !== "login") return { ok: false, code: "expired" };
  const result = await authenticate(db, credentials.email, credentials.password, { clientAddress: credentials.clientAddress });
  // "disabled" comes only after the right password (authenticate), as on the site's sign-in.
  if (!result.ok) return result.code === "throttled" ? result : { ok: false, code: result.code };
  const authTime = Math.floor(Date.now() / 1000);
  const location = await finish(headers, uid, { login: { accountId: String(result.user.id), ts: authTime } });
  return { ok: true, location, cookie: await siteSessionCookie(result.user, authTime) };
}

export interface ConsentPageView {
  application: ApplicationSummary;
  user: Pick<SessionUser, "id" | "name" | "email">;
  /** Scopes granted together with Allow. */
  scopes: Scope[];
  /** Scopes asked separately (health:read), each an unticked box. */
  separateScopes: Scope[];
}

export async function consentView(db: Db, headers: Headers, uid: string): Promise<ConsentPageView | null> {
  const details = await findInteraction(headers, uid);
  if (!details || details.prompt.name !== "consent" || !details.session?.accountId) return null;
  const app = await applicationByClientId(db, String(details.params.client_id ?? ""));
  // The provider already refused anyone but the owner (or the owner's sandbox person); checked again here all the same.
  if (!app || !mayAuthorize(app, details.session.accountId)) return null;
  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, Number(details.session.accountId)));
  const scopes = requestedScopes(details, app);
  return {
    application: app,
    user,
    scopes: scopes.filter((s) => !SEPARATE_CONSENT_SCOPES.includes(s)),
    separateScopes: scopes.filter((s) => SEPARATE_CONSENT_SCOPES.includes(s)),
  };
}

export interface ConsentDecision {
  allow: boolean;
  /** Separately consented scopes the user ticked (health:read). */
  tickedSeparateScopes: string[];
}

/**
 * Allow or Deny. Allow rebuilds the grant from the request on the server (the
 * form only carries the decision and the ticked boxes): the scopes the
 * application registered and asked for, minus unticked separate ones, which
 * are recorded as declined.
 */
export async function submitConsent(
  db: Db,
  headers: Headers,
  uid: string,
  decision: ConsentDecision,
): Promise<{ ok: true; location: string } | { ok: false }> {
  const details = await findInteraction(headers, uid);
  if (!details || details.prompt.name !== "consent" || !details.session?.accountId) return { ok: false };
  const accountId = details.session.accountId;
  const app = await applicationByClientId(db, String(details.params.client_id ?? ""));
  if (!app || !mayAuthorize(app, accountId) || !decision.allow) {
    const location = await finish(headers, uid, {
      error: "access_denied",
      error_description:
        app && mayAuthorize(app, accountId) ? "the user denied the request" : "only the owner of this application can authorize it",
    });
    return { ok: true, location };
  }
  const provider = await getProvider();
  const scopes = requestedScopes(details, app);
  const declined = scopes.filter((s) => SEPARATE_CONSENT_SCOPES.includes(s) && !decision.tickedSeparateScopes.includes(s));
  const granted = scopes.filter((s) => !declined.includes(s));
  const oidcScopes = granted.filter(isOidcScope);
  const apiScopes = granted.filter(isApiScope);

  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant =
    existing && existing.accountId === accountId && existing.clientId === app.clientId
      ? existing
      : new provider.Grant({ accountId, clientId: app.clientId });
  // This consent replaces whatever the grant held before.
  grant.openid = undefined;
  grant.resources = undefined;
  grant.rejected = undefined;
  if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(" "));
  const resource = apiResource();
  // openid, profile and email serve the Data API too (GET /me): API access tokens carry them when granted.
  const resourceScopes = [...oidcScopes.filter((s) => s === "openid" || s === "profile" || s === "email"), ...apiScopes];
  if (resourceScopes.length) grant.addResourceScope(resource, resourceScopes.join(" "));
  if (declined.length) grant.rejectResourceScope(resource, declined.join(" "));
  const grantId = await grant.save();
  await recordConsent(db, {
    grantId,
    userId: Number(accountId),
    applicationId: app.id,
    scopes: granted,
    declinedScopes: declined,
    expiresAt: new Date(grant.exp ? grant.exp * 1000 : Date.now() + TTL.grant * 1000),
  });
  const location = await finish(headers, uid, { consent: { grantId } });
  return { ok: true, location };
}

/** Cancel on the sign-in page: the application gets access_denied. */
export async function abortInteraction(headers: Headers, uid: string): Promise<{ ok: true; location: string } | { ok: false }> {
  const details = await findInteraction(headers, uid);
  if (!details) return { ok: false };
  return {
    ok: true,
    location: await finish(headers, uid, { error: "access_denied", error_description: "the user cancelled the sign-in" }),
  };
}
