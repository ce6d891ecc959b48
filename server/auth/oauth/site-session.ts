import { encode, getToken } from "next-auth/jwt";
import type { Db } from "../../db/client";
import { getSessionUser, type SessionUser } from "../../users/users";
import { getAuthOptions } from "../next-auth";

/**
 * The web application's next-auth session, seen from the authorization
 * server. The OAuth sign-in reuses it (a signed-in user is not asked for a
 * password again unless prompt=login or max_age demands it), and a sign-in
 * on the OAuth pages signs the user in to the site too: one session, one
 * account, whichever door the user came through.
 */
export interface SiteSession {
  user: SessionUser;
  /** When the password was entered (epoch seconds); null for sessions from before this was recorded. */
  authTime: number | null;
}

function parseCookies(header: string | null | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    const value = part.slice(i + 1).trim();
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

/** The signed-in user behind a Cookie header, checked like getCurrentUser() (session version must match). */
export async function readSiteSession(db: Db, cookieHeader: string | null | undefined): Promise<SiteSession | null> {
  if (!cookieHeader) return null;
  const options = await getAuthOptions();
  const token = await getToken({
    // next-auth only reads `cookies` from this request-like object.
    req: { cookies: parseCookies(cookieHeader), headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: options.secret,
    secureCookie: Boolean(options.useSecureCookies),
  }).catch(() => null);
  if (!token?.uid || token.sv === undefined) return null;
  const user = await getSessionUser(db, token.uid);
  if (!user || user.sessionVersion !== token.sv) return null;
  return { user, authTime: typeof token.authTime === "number" ? token.authTime : null };
}

export interface CookieToSet {
  name: string;
  value: string;
  options: { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean; maxAge: number };
}

function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}next-auth.session-token`;
}

/** The next-auth session cookie for a user who just signed in on the OAuth pages. */
export async function siteSessionCookie(user: SessionUser, authTime: number): Promise<CookieToSet> {
  const options = await getAuthOptions();
  const maxAge = options.session?.maxAge ?? 30 * 24 * 60 * 60;
  const secure = Boolean(options.useSecureCookies);
  const value = await encode({
    secret: options.secret!,
    maxAge,
    token: { name: user.name, email: user.email, sub: String(user.id), uid: user.id, sv: user.sessionVersion, authTime },
  });
  return { name: sessionCookieName(secure), value, options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge } };
}

/** Name of the session cookie (next-auth uses the __Secure- prefix exactly when APP_URL is https). */
export function siteSessionCookieName(secure: boolean): string {
  return sessionCookieName(secure);
}
