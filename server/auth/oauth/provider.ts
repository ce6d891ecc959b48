import Provider, { errors, interactionPolicy, type KoaContextWithOIDC, type OidcClient } from "oidc-provider";
import { getEnv } from "../../config/env";
import { getDb, type Db } from "../../db/client";
import { getSessionUser } from "../../users/users";
import { clientSecretMatches } from "../../applications/client-secrets";
import { getOrCreateAppSecret } from "../app-secrets";
import { createAdapterFactory } from "./adapter";
import { EXTRA_CLIENT_PROPERTIES, mayAuthorize, type AppClientFields } from "./clients";
import { apiResource, interactionPath, issuerUrl, tokenAudiences, TTL } from "./config";
import { findActiveGrantId } from "./grants";
import { errorPage, logoutPage, loggedOutPage } from "./provider-pages";
import { pairwiseSubject } from "./pairwise";
import { ALL_SCOPES, isApiScope, isScope, scopeAllowedOnSurface, OIDC_SCOPES } from "./scopes";
import { getOrCreateSigningKeys } from "./signing-keys";
import { readSiteSession, siteSessionCookieName } from "./site-session";

/**
 * The oidc-provider configuration (docs/oauth.md). Only the authorization
 * code grant with PKCE S256; opaque, audience-bound access tokens; rotating
 * refresh tokens; pairwise subjects; our own sign-in and consent pages.
 */

type AppClient = OidcClient & AppClientFields;
const appClient = (client: OidcClient | undefined) => client as AppClient | undefined;

/** Public clients may keep a refresh token family for this long, however often it rotates. */
const PUBLIC_CLIENT_REFRESH_FAMILY_SECONDS = 30 * 24 * 60 * 60;

const epoch = () => Math.floor(Date.now() / 1000);

/** Whether a space-separated scope list names any Data API scope. */
export function requestsApiScope(scope: unknown): boolean {
  return typeof scope === "string" && scope.split(" ").some(isApiScope);
}

export interface BuildOptions {
  db: Db;
  appUrl: string;
}

export async function buildProvider({ db, appUrl }: BuildOptions): Promise<Provider> {
  const [signingKeys, cookieKey, pairwiseKey] = await Promise.all([
    getOrCreateSigningKeys(db),
    getOrCreateAppSecret(db, "oauth:cookies"),
    getOrCreateAppSecret(db, "oauth:pairwise"),
  ]);
  const secure = appUrl.startsWith("https://");
  const resource = apiResource(appUrl);
  const siteOrigin = new URL(appUrl).origin;

  // Login prompt: the authorization server's session follows the site's. A user who signed
  // out of the site, or is now signed in as someone else, signs in again.
  const policy = interactionPolicy.base();
  policy.get("login")!.checks.add(
    new interactionPolicy.Check("site_session", "the site session ended or changed", "login_required", async (ctx) => {
      const { session, result } = ctx.oidc;
      if (!session?.accountId || result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const site = await readSiteSession(db, ctx.get("cookie"));
      return site && String(site.user.id) === session.accountId
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  // Consent prompt, first check: only the owner of an application can authorize it
  // (data-api.md "Authentication" 7). Anyone else gets access_denied before any consent screen.
  policy.get("consent")!.checks.add(
    new interactionPolicy.Check("owner_only", "only the owner of this application can authorize it", "access_denied", (ctx) => {
      const client = appClient(ctx.oidc.client);
      const accountId = ctx.oidc.session?.accountId;
      if (!client || !mayAuthorize({ ownerUserId: client.appOwnerUserId, sandboxUserId: client.appSandboxUserId ?? null }, accountId)) {
        throw new errors.AccessDenied("only the owner of this application can authorize it");
      }
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );

  const provider = new Provider(issuerUrl(appUrl), {
    adapter: createAdapterFactory(db),
    clients: [],
    extraClientMetadata: { properties: [...EXTRA_CLIENT_PROPERTIES], validator: () => undefined },
    clientAuthMethods: ["client_secret_basic", "none"],
    responseTypes: ["code"],
    pkce: { required: () => true },
    scopes: [...OIDC_SCOPES],
    claims: { openid: ["sub"], profile: ["name"], email: ["email", "email_verified"] },
    subjectTypes: ["pairwise"],
    pairwiseIdentifier: (_ctx: unknown, accountId: string, client: OidcClient) =>
      pairwiseSubject(pairwiseKey, client.sectorIdentifier ?? client.clientId, accountId),
    // OAuth 2.1 and OpenID Connect both want these; oidc-provider would accept them missing.
    extraParams: {
      state(_ctx: KoaContextWithOIDC, value: unknown) {
        if (typeof value !== "string" || value.length === 0) throw new errors.InvalidRequest("state is required");
      },
      nonce(ctx: KoaContextWithOIDC, value: unknown) {
        const scopes = String(ctx.oidc.params?.scope ?? "").split(" ");
        if (scopes.includes("openid") && (typeof value !== "string" || value.length === 0)) {
          throw new errors.InvalidRequest(
            "nonce is required when the openid scope is requested: send nonce=<a random value> with the authorization request and check it in the ID token (or leave out openid)",
          );
        }
      },
      scope(_ctx: KoaContextWithOIDC, value: unknown, client: OidcClient) {
        const registered = new Set([...String(client.scope ?? "").split(" "), ...(appClient(client)?.appApiScopes ?? [])]);
        for (const scope of String(value ?? "")
          .split(" ")
          .filter(Boolean)) {
          if (!isScope(scope) || !registered.has(scope)) {
            const error = new errors.InvalidScope("requested scope is not registered for this application", scope);
            throw error;
          }
        }
      },
    },
    allowOmittingSingleRegisteredRedirectUri: false,
    acceptQueryParamAccessTokens: false,
    conformIdTokenClaims: true,
    enabledJWA: {
      idTokenSigningAlgValues: ["RS256", "ES256"],
      userinfoSigningAlgValues: ["RS256", "ES256"],
      introspectionSigningAlgValues: ["RS256", "ES256"],
      authorizationSigningAlgValues: ["RS256", "ES256"],
      requestObjectSigningAlgValues: ["RS256", "ES256"],
      clientAuthSigningAlgValues: ["RS256", "ES256"],
    },
    jwks: signingKeys,
    cookies: {
      names: { session: "oauth_session", interaction: "oauth_interaction", resume: "oauth_resume" },
      long: { httpOnly: true, sameSite: "lax", secure },
      short: { httpOnly: true, sameSite: "lax", secure },
      keys: [cookieKey],
    },
    features: {
      devInteractions: { enabled: false },
      // Sender-constrained tokens would need DPoP proofs checked by the Data API too; not offered.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      claimsParameter: { enabled: false },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: OidcClient, token: { clientId?: string }) => token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        // Only operator-approved confidential clients, and only for their own tokens. Unapproved
        // callers get an error (see the middleware below), never a hint about a token.
        allowedPolicy: async (_ctx: unknown, client: OidcClient, token: { clientId?: string }) =>
          appClient(client)?.appIntrospectionAllowed === true && token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        // A code or refresh token whose request holds any Data API scope yields a Data API token
        // even without `resource` at the token endpoint: a client that follows only OpenID Connect
        // (no RFC 8707) gets a token GET /me and /sessions accept (issue 14, defect 5). A request of
        // OIDC scopes alone (at authorization, or narrowed with `scope` on refresh) keeps the
        // userinfo token (docs/oauth.md "Tokens, audiences").
        useGrantedResource: async (ctx: KoaContextWithOIDC, model: { scope?: string }) =>
          requestsApiScope(ctx.oidc.params?.scope ?? model.scope),
        getResourceServerInfo: async (_ctx: unknown, indicator: string, client: OidcClient) => {
          if (indicator !== resource) throw new errors.InvalidTarget("unknown resource indicator; the Data API is " + resource);
          const app = appClient(client);
          const scopes = (app?.appApiScopes ?? []).filter((s) => isApiScope(s) && isScope(s) && scopeAllowedOnSurface(s, app!.appSurface));
          // openid, profile and email also serve the Data API (GET /me, /authorization): API tokens carry them when granted.
          const registered = String(client.scope ?? "").split(" ");
          const identity = ["openid", "profile", "email"].filter((s) => registered.includes(s));
          return {
            scope: [...identity, ...scopes].join(" "),
            audience: resource,
            accessTokenTTL: TTL.accessToken,
            accessTokenFormat: "opaque",
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = "html";
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.type = "html";
          ctx.body = loggedOutPage();
        },
      },
    },
    routes: {
      authorization: "/oauth/authorize",
      token: "/oauth/token",
      userinfo: "/oauth/userinfo",
      revocation: "/oauth/revoke",
      introspection: "/oauth/introspect",
      jwks: "/oauth/jwks.json",
      end_session: "/oauth/logout",
      // Disabled features keep their paths inside the mount too.
      pushed_authorization_request: "/oauth/par",
      registration: "/oauth/register",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      backchannel_authentication: "/oauth/backchannel",
      challenge: "/oauth/challenge",
      credential: "/oauth/credential",
    },
    ttl: {
      AuthorizationCode: TTL.authorizationCode,
      AccessToken: TTL.accessToken,
      IdToken: TTL.idToken,
      Grant: TTL.grant,
      Interaction: TTL.interaction,
      Session: TTL.session,
      RefreshToken: (_ctx: unknown, token: { iiat?: number }, client: OidcClient) => {
        if (client.clientAuthMethod !== "none") return TTL.refreshToken;
        const familyAge = typeof token.iiat === "number" ? epoch() - token.iiat : 0;
        return Math.max(1, Math.min(TTL.refreshToken, PUBLIC_CLIENT_REFRESH_FAMILY_SECONDS - familyAge));
      },
    },
    // Every use of a refresh token replaces it; the old one, if presented again, revokes the grant.
    rotateRefreshToken: true,
    // API access must not end when the browser session does; revocation is explicit.
    expiresWithSession: async () => false,
    // Revoking any token of a grant (or replaying one) revokes the grant: data-api.md "States and transitions".
    revokeGrantPolicy: () => true,
    interactions: {
      policy,
      url: async (_ctx: unknown, interaction: { uid: string }) => `${appUrl}${interactionPath(interaction.uid)}`,
    },
    findAccount: async (_ctx: unknown, id: string) => {
      const userId = Number(id);
      if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
      const user = await getSessionUser(db, userId);
      if (!user) return undefined;
      return {
        accountId: id,
        // sub is replaced by the pairwise value before anything leaves; the email is not verified by this service.
        claims: async () => ({ sub: id, name: user.name, email: user.email, email_verified: false }),
      };
    },
    // Consent is remembered per user and application, not per browser session.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = appClient(ctx.oidc.client);
      const accountId = ctx.oidc.session?.accountId;
      if (!client || !accountId) return undefined;
      const grantId =
        ctx.oidc.result?.consent?.grantId ??
        ctx.oidc.session?.grantIdFor(client.clientId) ??
        (await findActiveGrantId(db, Number(accountId), client.appId));
      if (!grantId) return undefined;
      const grant = await ctx.oidc.provider.Grant.find(grantId);
      return grant && grant.accountId === accountId && grant.clientId === client.clientId ? grant : undefined;
    },
    clientBasedCORS: (ctx: KoaContextWithOIDC, origin: string, client: OidcClient) => {
      if (origin === "null") return false;
      // The developer portal's "Get a test token" exchanges a code from this site's own pages,
      // for confidential clients too (the owner types the secret; docs/oauth.md "Test tokens").
      if (ctx.oidc.route === "token" && origin === siteOrigin) return true;
      if (ctx.oidc.route !== "userinfo" && client.clientAuthMethod !== "none") return false;
      return client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin);
    },
    renderError: async (ctx: KoaContextWithOIDC, out: Record<string, string>) => {
      ctx.type = "html";
      ctx.body = errorPage(out);
    },
  });

  // Stored client_secret values are SHA-256 hashes (docs/oauth.md "Client secrets"):
  // hash what the client presents and compare in constant time.
  provider.Client.prototype.compareClientSecret = function compareHashedClientSecret(actual: string) {
    return clientSecretMatches(this.clientSecret, actual);
  };

  provider.use(async (ctx, next) => {
    await next();
    // Discovery lists the Data API scopes too (oidc-provider only knows its OpenID ones).
    if (ctx.oidc?.route === "discovery" && ctx.status === 200 && ctx.body && typeof ctx.body === "object") {
      (ctx.body as Record<string, unknown>).scopes_supported = [...ALL_SCOPES];
      return;
    }
    // Introspection is for operator-approved confidential clients only: anyone else gets an
    // error whatever the token, so the endpoint is no oracle for them.
    if (ctx.oidc?.route !== "introspection" || ctx.status !== 200) return;
    // A Data API token with openid serves userinfo too: introspection names both audiences (config.ts tokenAudiences).
    const introspected = ctx.body as Record<string, unknown> | undefined;
    if (introspected?.active === true && introspected.aud !== undefined) {
      const audiences = tokenAudiences(introspected, appUrl);
      introspected.aud = audiences.length === 1 ? audiences[0] : audiences;
    }
    const client = appClient(ctx.oidc.client);
    if (!client || client.clientAuthMethod === "none") {
      ctx.status = 401;
      ctx.set("WWW-Authenticate", 'Basic realm="oauth"');
      ctx.body = { error: "invalid_client", error_description: "introspection requires client authentication with HTTP Basic" };
    } else if (!client.appIntrospectionAllowed) {
      ctx.status = 403;
      ctx.body = { error: "unauthorized_client", error_description: "this client is not approved for token introspection" };
    }
  });

  // Signing out on the logout page signs out of the site too (one session). Not when the
  // provider logs the previous account out itself because another one just signed in.
  const siteCookie = siteSessionCookieName(secure);
  provider.on("end_session.success", (ctx: KoaContextWithOIDC) => {
    if (ctx.oidc.params?.logout && ctx.oidc.body?.also_site === "yes") {
      ctx.cookies.set(siteCookie, null, { path: "/", secure, httpOnly: true, sameSite: "lax", signed: false });
    }
  });
  provider.on("server_error", (_ctx: unknown, error: unknown) => console.error("oauth: server error", error));
  return provider;
}

// One provider per process, kept on globalThis like the database handle
// (Next.js may load this module in more than one bundle).
const globalKey = Symbol.for("svc-results.oidc-provider");
type GlobalWithProvider = typeof globalThis & { [globalKey]?: Promise<Provider> };

export function getProvider(): Promise<Provider> {
  const g = globalThis as GlobalWithProvider;
  g[globalKey] ??= buildProvider({ db: getDb(), appUrl: getEnv().appUrl }).catch((error) => {
    g[globalKey] = undefined;
    throw error;
  });
  return g[globalKey]!;
}
