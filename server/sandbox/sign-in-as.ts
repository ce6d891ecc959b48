import type { Db } from "../db/client";
import { getAuthOptions } from "../auth/next-auth";
import { readSiteSession, siteSessionCookie, siteSessionCookieName, type CookieToSet } from "../auth/oauth/site-session";
import { AppError } from "../errors";
import type { SessionUser } from "../users/users";
import { getSandboxPerson, sandboxOf } from "./sandbox";

/**
 * "Sign in as sandbox person" (docs/sandbox.md): the owner's browser gets a
 * site session of the sandbox person, so the owner can look at its data and
 * authorize the application as it (the OAuth pages reuse the site session).
 * The owner's own session cookie is kept aside in a second HttpOnly cookie;
 * "Back to my account" puts it back only if it is still a valid session of
 * this sandbox's owner. Nothing here can reach anyone else's account: the
 * sandbox is looked up by its owner, and the kept cookie is checked like any
 * session (signature, session version).
 */
const RETURN_COOKIE = "sandbox-return";

function parseCookie(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

async function cookieNames() {
  const secure = Boolean((await getAuthOptions()).useSecureCookies);
  return { secure, session: siteSessionCookieName(secure), keep: `${secure ? "__Secure-" : ""}${RETURN_COOKIE}` };
}

export async function signInAsSandbox(
  db: Db,
  owner: SessionUser,
  applicationId: number,
  cookieHeader: string | null,
): Promise<CookieToSet[]> {
  if (await sandboxOf(db, owner.id)) throw new AppError("forbidden", "Already signed in as a sandbox person");
  const { person } = await getSandboxPerson(db, owner.id, applicationId);
  const names = await cookieNames();
  const ownSession = parseCookie(cookieHeader, names.session);
  const session = await siteSessionCookie(person, Math.floor(Date.now() / 1000));
  return [session, ...(ownSession ? [{ ...session, name: names.keep, value: ownSession }] : [])];
}

/**
 * Back to the owner's account from a sandbox person's session: the kept
 * session if it is still valid and belongs to this sandbox's owner, else a
 * plain sign-out (both cookies cleared).
 */
export async function returnFromSandbox(
  db: Db,
  current: SessionUser,
  cookieHeader: string | null,
): Promise<{ cookies: CookieToSet[]; location: string }> {
  const sandbox = await sandboxOf(db, current.id);
  if (!sandbox) throw new AppError("forbidden", "Not signed in as a sandbox person");
  const names = await cookieNames();
  const kept = parseCookie(cookieHeader, names.keep);
  const owner = kept ? await readSiteSession(db, `${names.session}=${kept}`) : null;
  const options = { httpOnly: true as const, sameSite: "lax" as const, path: "/" as const, secure: names.secure };
  const clearKept: CookieToSet = { name: names.keep, value: "", options: { ...options, maxAge: 0 } };
  if (owner && owner.user.id === sandbox.ownerUserId) {
    return {
      cookies: [{ name: names.session, value: kept!, options: { ...options, maxAge: 30 * 24 * 60 * 60 } }, clearKept],
      location: `/developer/applications/${sandbox.applicationId}`,
    };
  }
  return { cookies: [{ name: names.session, value: "", options: { ...options, maxAge: 0 } }, clearKept], location: "/signin" };
}
