import { z } from "zod";
import { ALL_SCOPES, isScope, SCOPE_INFO, scopeAllowedOnSurface, SURFACES, type Scope, type Surface } from "../auth/oauth/scopes";

/**
 * What a registered application may contain (docs/oauth.md "Applications").
 * Pure rules, shared by registration, editing and the unit tests.
 */
export const MAX_REDIRECT_URIS = 10;
export const MAX_EMBED_ORIGINS = 10;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * A redirect URI in the exact form it must be sent: HTTPS, or HTTP on a
 * loopback host (native and development clients); no fragment, no
 * credentials, no wildcards. Returned in canonical form (what the client must
 * send, character for character).
 */
export function checkRedirectUri(input: string): Checked<string> {
  const value = input.trim();
  if (value.length === 0 || value.length > 2000) return { ok: false, message: `“${value.slice(0, 60)}” is not a valid redirect URI` };
  const url = URL.parse(value);
  if (!url) return { ok: false, message: `“${value}” is not an absolute URL` };
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    return { ok: false, message: `“${value}” must use https (http only on localhost, 127.0.0.1 or [::1])` };
  }
  if (value.includes("#")) return { ok: false, message: `“${value}” must not contain a fragment (#)` };
  if (url.username || url.password) return { ok: false, message: `“${value}” must not contain a user name or password` };
  if (value.includes("*")) return { ok: false, message: `“${value}” must not contain wildcards: redirect URIs are matched exactly` };
  return { ok: true, value: url.href };
}

/** An exact HTTPS origin (scheme, host, optional port), e.g. https://club.example. */
export function checkEmbedOrigin(input: string): Checked<string> {
  const value = input.trim().replace(/\/$/, "");
  const url = URL.parse(value);
  if (!url || url.protocol !== "https:") return { ok: false, message: `“${value}” must be an https origin such as https://club.example` };
  if (url.origin !== value)
    return { ok: false, message: `“${value}” must be an origin only (no path, query, user name or trailing characters): ${url.origin}` };
  if (value.includes("*")) return { ok: false, message: `“${value}” must not contain wildcards` };
  return { ok: true, value: url.origin };
}

export function checkScopes(scopes: string[], surface: Surface): Checked<Scope[]> {
  if (scopes.length === 0) return { ok: false, message: "Choose at least one scope" };
  for (const scope of scopes) {
    if (!isScope(scope)) return { ok: false, message: `Unknown scope ${scope}` };
    if (!scopeAllowedOnSurface(scope, surface)) {
      return { ok: false, message: `${scope} is only available to ${SCOPE_INFO[scope].surfaces.join(" and ")} applications` };
    }
  }
  if (scopes.includes("offline_access") && !scopes.includes("openid")) {
    return { ok: false, message: "offline_access needs openid (refresh tokens are an OpenID Connect feature here)" };
  }
  const order = ALL_SCOPES as readonly string[];
  return { ok: true, value: [...new Set(scopes)].sort((a, b) => order.indexOf(a) - order.indexOf(b)) as Scope[] };
}

const ZLines = z.array(z.string().max(2000)).max(50);

const ZEditable = {
  name: z.string().trim().min(1, "Give the application a name").max(80, "At most 80 characters"),
  redirectUris: ZLines,
  embedOrigins: ZLines.default([]),
  scopes: z.array(z.string().max(40)).max(ALL_SCOPES.length + 5),
};

export const ZApplicationInput = z.object({
  ...ZEditable,
  surface: z.enum(SURFACES, { error: "Choose data, partner or session" }),
  clientType: z.enum(["confidential", "public"], { error: "Choose confidential or public" }),
});
export const ZApplicationUpdate = z.object(ZEditable);

export type ApplicationInput = z.input<typeof ZApplicationInput>;
export type ApplicationUpdate = z.input<typeof ZApplicationUpdate>;

export interface CheckedApplication {
  name: string;
  redirectUris: string[];
  embedOrigins: string[];
  scopes: Scope[];
}

/** Validates the editable fields for a surface; field messages keyed like the form's inputs. */
export function checkApplicationFields(
  input: { name: string; redirectUris: string[]; embedOrigins: string[]; scopes: string[] },
  surface: Surface,
): { ok: true; value: CheckedApplication } | { ok: false; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (fieldErrors[field] ??= []).push(message);

  const redirectUris: string[] = [];
  const rawUris = input.redirectUris.map((s) => s.trim()).filter(Boolean);
  if (rawUris.length === 0) add("redirectUris", "Add at least one redirect URI");
  if (rawUris.length > MAX_REDIRECT_URIS) add("redirectUris", `At most ${MAX_REDIRECT_URIS} redirect URIs`);
  for (const raw of rawUris) {
    const checked = checkRedirectUri(raw);
    if (checked.ok) redirectUris.push(checked.value);
    else add("redirectUris", checked.message);
  }
  // Pairwise subjects are computed per host: one host per application (OpenID Connect Core §8.1).
  if (new Set(redirectUris.map((u) => new URL(u).host)).size > 1)
    add("redirectUris", "All redirect URIs must be on the same host (and port)");

  const embedOrigins: string[] = [];
  const rawOrigins = input.embedOrigins.map((s) => s.trim()).filter(Boolean);
  if (rawOrigins.length > MAX_EMBED_ORIGINS) add("embedOrigins", `At most ${MAX_EMBED_ORIGINS} origins`);
  if (rawOrigins.length > 0 && surface === "session") add("embedOrigins", "Session applications cannot embed replays");
  for (const raw of rawOrigins) {
    const checked = checkEmbedOrigin(raw);
    if (checked.ok) embedOrigins.push(checked.value);
    else add("embedOrigins", checked.message);
  }

  const scopes = checkScopes(input.scopes, surface);
  if (!scopes.ok) add("scopes", scopes.message);

  if (Object.keys(fieldErrors).length > 0 || !scopes.ok) return { ok: false, fieldErrors };
  return {
    ok: true,
    value: {
      name: input.name.trim(),
      redirectUris: [...new Set(redirectUris)],
      embedOrigins: [...new Set(embedOrigins)],
      scopes: scopes.value,
    },
  };
}
