/**
 * The Data API scopes (data-api.md "Scopes"), what each means in plain words
 * for the consent screen, and which surfaces may ask for it. Pure: no I/O.
 */
export const SURFACES = ["data", "partner", "session"] as const;
export type Surface = (typeof SURFACES)[number];

/** OpenID Connect scopes: oidc-provider handles them itself (userinfo, ID token, refresh tokens). */
export const OIDC_SCOPES = ["openid", "profile", "email", "offline_access"] as const;
/** Scopes of the Data API resource server (the access token's audience). */
export const API_SCOPES = [
  "catalog:read",
  "athlete:read",
  "sessions:read",
  "trainings:read",
  "workouts:read",
  "equipment:read",
  "records:read",
  "exports:create",
  "health:read",
  "devices:read",
  "devices:files",
  "svcsim:embed",
] as const;
export const ALL_SCOPES = [...OIDC_SCOPES, ...API_SCOPES] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/** Asked separately on the consent screen, unticked at first; left unticked it is recorded as declined. */
export const SEPARATE_CONSENT_SCOPES: readonly Scope[] = ["health:read"];

interface ScopeInfo {
  /** Consent-screen wording: what the application will be able to do. */
  description: string;
  /** Surfaces on which an application may request the scope. */
  surfaces: readonly Surface[];
}

const EVERY_SURFACE = SURFACES;

export const SCOPE_INFO: Record<Scope, ScopeInfo> = {
  openid: { description: "Know that it is you, through an identifier made only for this application", surfaces: EVERY_SURFACE },
  profile: { description: "See your display name", surfaces: EVERY_SURFACE },
  email: { description: "See your email address", surfaces: EVERY_SURFACE },
  offline_access: { description: "Keep access while you are away, until you revoke it", surfaces: EVERY_SURFACE },
  "catalog:read": { description: "Read the reference catalogues (boats, paddles, session options)", surfaces: EVERY_SURFACE },
  "athlete:read": { description: "Read your athlete profile and, for data applications, your roster and teams", surfaces: EVERY_SURFACE },
  "sessions:read": { description: "Read your sessions: splits, strokes, summaries and analyses", surfaces: EVERY_SURFACE },
  "trainings:read": { description: "Read your trainings and their sets", surfaces: EVERY_SURFACE },
  "workouts:read": { description: "Read your workout templates", surfaces: EVERY_SURFACE },
  "equipment:read": { description: "Read your boats and paddles", surfaces: EVERY_SURFACE },
  "records:read": { description: "Read your performance records", surfaces: EVERY_SURFACE },
  "exports:create": {
    description: "Create and download exports (PDF, spreadsheet, FIT, TCX) of your sessions and trainings",
    surfaces: EVERY_SURFACE,
  },
  "health:read": {
    description: "Read your health data: heart rate from your own devices, and the weight and lactate you entered",
    surfaces: EVERY_SURFACE,
  },
  "devices:read": { description: "See your sensor units and their status", surfaces: ["data"] },
  "devices:files": {
    description: "List the files on your sensor units and fetch copies of the original encrypted files",
    surfaces: ["data"],
  },
  "svcsim:embed": { description: "Show 3D replays of your sessions on approved websites", surfaces: ["data", "partner"] },
};

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

export function isApiScope(value: string): boolean {
  return (API_SCOPES as readonly string[]).includes(value);
}

export function isOidcScope(value: string): boolean {
  return (OIDC_SCOPES as readonly string[]).includes(value);
}

export function scopeAllowedOnSurface(scope: Scope, surface: Surface): boolean {
  return SCOPE_INFO[scope].surfaces.includes(surface);
}

/** Scopes in the canonical order of the list above (stable display and storage). */
export function sortScopes<T extends string>(scopes: Iterable<T>): T[] {
  const order = new Map<string, number>(ALL_SCOPES.map((s, i) => [s, i]));
  return [...new Set(scopes)].sort((a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99));
}
