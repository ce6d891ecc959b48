import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { getEnv } from "../config/env";
import { getDb } from "../db/client";
import { sameOriginReturnPath } from "./return-path";
import { getSessionUser, type SessionUser } from "../users/users";
import { getAuthOptions } from "./next-auth";

/**
 * The signed-in user of this request, or null. The session version in the
 * cookie must equal the one in the database, so sign-out everywhere and a
 * password change end every other session at once. Cached per request.
 */
export const getCurrentUser = cache(async (): Promise<SessionUser | null> => {
  // Signed-in pages are per request: never prerendered at build time.
  await connection();
  const session = await getServerSession(await getAuthOptions());
  if (!session?.uid || session.sv === undefined) return null;
  const user = await getSessionUser(getDb(), session.uid);
  if (!user || user.sessionVersion !== session.sv) return null;
  return user;
});

/** For server pages: the user, or a redirect to sign-in. */
export async function requireUser(returnTo?: string): Promise<SessionUser> {
  const user = await getCurrentUser();
  if (!user) {
    const path = sameOriginReturnPath(returnTo ?? (await headers()).get("x-request-path"), getEnv().appUrl);
    redirect(path === "/" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(path)}`);
  }
  return user;
}

/** For operator pages: non-operators get the not-found page, not a hint that the page exists. */
export async function requireOperator(): Promise<SessionUser> {
  const user = await requireUser("/operator");
  if (!user.isOperator) {
    const { notFound } = await import("next/navigation");
    notFound();
  }
  return user;
}
