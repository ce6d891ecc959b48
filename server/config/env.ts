import path from "node:path";
import { z } from "zod";

/**
 * Environment variables, validated once with a clear message per bad value.
 * See README.md "Configuration" for what each one does.
 */
const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Real Postgres. Unset: embedded PGlite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** Folder of the embedded PGlite database. */
  DATA_DIR: z.string().min(1).default(".data"),
  /** Public origin of the site, e.g. https://results.example.com (no trailing slash). */
  APP_URL: z
    .string()
    .url("must be an absolute URL such as https://results.example.com")
    .refine((v) => !v.endsWith("/"), "must not end with a slash")
    .optional(),
  /**
   * Set to 1 behind a TLS-terminating proxy that sets X-Forwarded-Proto: only
   * then is that header believed (the results API upload requires HTTPS).
   */
  TRUST_PROXY: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** Signs session cookies. Unset: generated on first start and kept in the database. */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
});

export type Env = z.infer<typeof ZEnv> & { appUrl: string; dataDir: string };

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings mean "unset" (a common shell habit: FOO= npm start).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  if (!cleaned.AUTH_SECRET && cleaned.NEXTAUTH_SECRET) cleaned.AUTH_SECRET = cleaned.NEXTAUTH_SECRET;
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  return {
    ...env,
    appUrl: env.APP_URL ?? `http://localhost:${env.PORT}`,
    dataDir: path.resolve(env.DATA_DIR),
  };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}
