import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getEnv } from "../config/env";
import { getDb } from "../db/client";
import { authenticate } from "../users/users";
import { getOrCreateAppSecret } from "./app-secrets";

/** Shown for unknown email and wrong password alike. */
export const INVALID_CREDENTIALS_MESSAGE = "Email or password is incorrect.";

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
        async authorize(credentials) {
          const email = String(credentials?.email ?? "");
          const password = String(credentials?.password ?? "");
          if (!email || !password) throw new Error(INVALID_CREDENTIALS_MESSAGE);
          const result = await authenticate(db, email, password);
          if (!result.ok) {
            if (result.code === "throttled") {
              const minutes = Math.ceil(result.retryAfterSeconds / 60);
              throw new Error(`Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
            }
            throw new Error(INVALID_CREDENTIALS_MESSAGE);
          }
          const { user } = result;
          return { id: String(user.id), email: user.email, name: user.name, sessionVersion: user.sessionVersion };
        },
      }),
    ],
    callbacks: {
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
