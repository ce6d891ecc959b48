import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getEnv } from "../config/env";
import { getDb } from "../db/client";
import { clientIp } from "../net/client-ip";
import { sameOriginReturnPath } from "./return-path";
import { authenticate } from "../users/users";
import { getOrCreateAppSecret } from "./app-secrets";
import { secondsUntilSignInAllowed, throttleKeyForAddress } from "./sign-in-throttle";

/** Shown for unknown email and wrong password alike. */
export const INVALID_CREDENTIALS_MESSAGE = "Email or password is incorrect.";
export const DISABLED_MESSAGE = "This account is disabled. Ask the service operator.";

const minutes = (seconds: number) => {
  const m = Math.max(1, Math.ceil(seconds / 60));
  return `${m} minute${m === 1 ? "" : "s"}`;
};

/** The sign-in throttle's two locks, as the sign-in page shows them (docs/auth.md "Failed sign-ins"). */
export function throttledMessage(scope: "account" | "address", retryAfterSeconds: number): string {
  return scope === "address"
    ? `Too many failed sign-ins from your network. Try again in ${minutes(retryAfterSeconds)}.`
    : `Too many failed attempts. Try again in ${minutes(retryAfterSeconds)}.`;
}

declare module "next-auth" {
  interface Session {
    uid?: number;
    sv?: number;
  }
  interface User {
    sessionVersion?: number;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    uid?: number;
    sv?: number;
    /** When the user entered their password (epoch seconds): OAuth max_age and prompt=login compare against it. */
    authTime?: number;
  }
}

/**
 * The site's credentials callback while the client's address is locked by
 * the sign-in throttle: 429 with Retry-After before next-auth runs, as the
 * OAuth sign-in page answers. The body is what next-auth's client reads
 * (`url` with the message as `error`), so the sign-in page shows it.
 */
export async function lockedAddressResponse(request: Request): Promise<Response | null> {
  const address = clientIp(request.headers);
  if (!address) return null;
  const wait = await secondsUntilSignInAllowed(getDb(), throttleKeyForAddress(address));
  if (wait === 0) return null;
  const url = `${getEnv().appUrl}/signin?error=${encodeURIComponent(throttledMessage("address", wait))}`;
  return Response.json({ url }, { status: 429, headers: { "Retry-After": String(wait), "Cache-Control": "no-store" } });
}

let cached: Promise<AuthOptions> | undefined;

/**
 * next-auth's credentials provider only supports JWT sessions, so the token
 * carries the user id and the user's session version; server/auth/current-user.ts
 * compares that version with the database on every request.
 */
export function getAuthOptions(): Promise<AuthOptions> {
  cached ??= buildAuthOptions().catch((error) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function buildAuthOptions(): Promise<AuthOptions> {
  const env = getEnv();
  const db = getDb();
  // next-auth builds its redirect URLs from NEXTAUTH_URL: the configured public origin, never the Host header.
  process.env.NEXTAUTH_URL = env.appUrl;
  const secret = env.AUTH_SECRET ?? (await getOrCreateAppSecret(db, "nextauth"));
  return {
    secret,
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    pages: { signIn: "/signin", error: "/signin" },
    useSecureCookies: env.appUrl.startsWith("https://"),
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const email = String(credentials?.email ?? "");
          const password = String(credentials?.password ?? "");
          if (!email || !password) throw new Error(INVALID_CREDENTIALS_MESSAGE);
          const clientAddress = clientIp(
            new Headers(Object.entries(req.headers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string")),
          );
          const result = await authenticate(db, email, password, { clientAddress });
          if (!result.ok) {
            throw new Error(
              result.code === "throttled"
                ? throttledMessage(result.scope, result.retryAfterSeconds)
                : result.code === "disabled"
                  ? DISABLED_MESSAGE
                  : INVALID_CREDENTIALS_MESSAGE,
            );
          }
          const { user } = result;
          return { id: String(user.id), email: user.email, name: user.name, sessionVersion: user.sessionVersion };
        },
      }),
    ],
    callbacks: {
      // Every return path next-auth follows (callbackUrl) stays on this site (docs/auth.md "Return paths").
      redirect({ url, baseUrl }) {
        return `${baseUrl}${sameOriginReturnPath(url, baseUrl)}`;
      },
      jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id);
          token.sv = user.sessionVersion;
          token.authTime = Math.floor(Date.now() / 1000);
        }
        return token;
      },
      session({ session, token }) {
        session.uid = token.uid;
        session.sv = token.sv;
        return session;
      },
    },
  };
}
