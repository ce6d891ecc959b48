import path from "node:path";
import { z } from "zod";
import { isLoopbackOrigin } from "../net/loopback";
import { loadKeyring } from "../svc/keyring";

/**
 * Environment variables, validated once with a clear message per bad value.
 * See README.md "Configuration" for what each one does.
 */
/** A positive whole number from a variable: "abc", "1.5", "0" or "-3" are start-up errors, never NaN at request time. */
const positiveInt = (fallback: number, max = 1_000_000_000) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`)
    .default(fallback);

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
  /**
   * 1 on a machine of one's own (the quickstart sets it): results API uploads
   * over plain HTTP are accepted from loopback addresses (127.0.0.0/8, ::1).
   * Only with an APP_URL on a loopback origin; HTTPS stays required otherwise.
   */
  ALLOW_HTTP_LOOPBACK: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** Signs session cookies. Unset: generated on first start and kept in the database. */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Background jobs (docs/jobs.md). Any of these set means a real Inngest
  // server runs our functions through /api/inngest; none set means the
  // embedded runner executes them in-process. The Inngest SDK reads the same
  // variables itself; they are validated here so a typo fails at start.
  /** Sends events to Inngest (Inngest Cloud or a self-hosted server). */
  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  /** Verifies that calls to /api/inngest come from our Inngest server: hex, optionally prefixed "signkey-<env>-". */
  INNGEST_SIGNING_KEY: z
    .string()
    .regex(/^(signkey-[a-z]+-)?(?:[0-9a-fA-F]{2})+$/, "must be a hex key, optionally prefixed signkey-<env>-")
    .optional(),
  /** A self-hosted Inngest server, e.g. http://inngest:8288 (unset: Inngest Cloud). */
  INNGEST_BASE_URL: z.string().url("must be an absolute URL such as http://inngest:8288").optional(),
  /** "1" or the dev server URL: use the Inngest dev server (no keys needed). "0" means not dev. */
  INNGEST_DEV: z
    .string()
    .refine(
      (v) => /^(1|0|true|false)$/i.test(v) || /^https?:\/\/[^\s/?#]+/i.test(v) || /^[a-z0-9.-]+(:\d+)?$/i.test(v),
      "must be 1, 0, true, false or the dev server URL",
    )
    .optional(),
  // API limits (docs/results-api.md "Rate limits", docs/data-api.md).
  /** Results API: requests per minute per key, every endpoint. */
  RESULTS_API_RATE_LIMIT: positiveInt(100),
  /** Results API: uploads (POST /results) per minute per key, on top of the general limit. */
  RESULTS_API_UPLOAD_RATE_LIMIT: positiveInt(10),
  /** Results API: PDF reports per minute per key, on top of the general limit. */
  RESULTS_API_PDF_RATE_LIMIT: positiveInt(20),
  /** Largest accepted .svc upload, bytes (64 MiB by default; at most 1 GiB). */
  RESULTS_API_MAX_UPLOAD_BYTES: positiveInt(64 * 1024 * 1024, 1024 * 1024 * 1024),
  /** Data API: requests per minute per application and person. */
  DATA_API_RATE_LIMIT: positiveInt(300),
  /**
   * Webhooks (docs/webhooks.md): 1 lets endpoints on loopback addresses
   * (http://127.0.0.1:…, http://localhost:…) register and receive deliveries,
   * for a local run and its tests (the quickstart sets it). Only with an
   * APP_URL on a loopback origin, like ALLOW_HTTP_LOOPBACK. Private,
   * link-local and other reserved addresses stay refused.
   */
  WEBHOOK_ALLOW_LOOPBACK: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** 1 refuses .svc files sealed with the published development key (docs/svc-format.md). */
  SVC_DISABLE_DEV_KEY: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** Device master keys: base64 of JSON {"<keyId>": "<base64 32-byte key>"}; checked in full by server/svc/keyring.ts at start. */
  SVC_KEYRING: z.string().optional(),
  /**
   * Map tiles behind the session page's course map, a {z}/{x}/{y} URL template
   * such as https://tile.example.org/{z}/{x}/{y}.png. Unset: the course is drawn
   * on a plain projected background, with no request leaving the browser.
   */
  MAP_TILE_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, "must be an http(s) URL template")
    .refine((v) => ["{z}", "{x}", "{y}"].every((part) => v.includes(part)), "must contain {z}, {x} and {y}")
    .optional(),
  // Object storage for blobs (docs/blobs.md). S3_BUCKET set: originals,
  // exports and replay artifacts go to S3-compatible storage; unset: Postgres.
  /** Bucket name (3–63 characters: lower-case letters, digits, dots and hyphens). */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3–63 lower-case letters, digits, dots and hyphens")
    .optional(),
  /** An S3-compatible endpoint such as https://minio.example.com:9000 (unset: AWS S3 of S3_REGION). */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+\/?$/, "must be an http(s) origin such as https://s3.example.com:9000")
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, "must be a region name such as eu-west-1")
    .optional(),
  /** Static credentials; unset: the AWS SDK's default chain (instance role, AWS_* variables). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** 1: bucket in the path (http://host/bucket/key), as MinIO and most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .default("0")
    .transform((v) => v === "1" || v === "true"),
});

/** Where blob bytes live: Postgres (embedded default) or S3-compatible storage. */
export interface S3Settings {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

/**
 * Who runs background functions: a real Inngest server ("inngest") or the
 * in-process embedded runner ("embedded"), decided by the INNGEST_* variables.
 */
export type JobsRunner = "inngest" | "embedded";

export type Env = z.infer<typeof ZEnv> & { appUrl: string; dataDir: string; jobsRunner: JobsRunner; s3: S3Settings | null };

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
  checkKeyring(env);
  const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`;
  checkHttpLoopback(env, appUrl);
  checkWebhookLoopback(env, appUrl);
  const jobsRunner = decideJobsRunner(env);
  const s3 = decideS3(env);
  return {
    ...env,
    appUrl,
    dataDir: path.resolve(env.DATA_DIR),
    jobsRunner: jobsRunner.runner,
    s3,
  };
}

/**
 * S3_BUCKET decides; the other S3_* variables without it are a start-up
 * error (a deployment that meant object storage must not silently fill
 * Postgres). Credentials come as a pair or not at all.
 */
function decideS3(env: z.infer<typeof ZEnv>): S3Settings | null {
  const problems: string[] = [];
  const others = (["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter(
    (name) => env[name] !== undefined,
  );
  if (!env.S3_BUCKET) {
    if (others.length)
      problems.push(...others.map((name) => `  ${name}: set S3_BUCKET too, or unset it (blobs stay in Postgres without S3_BUCKET)`));
  } else if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push(
      `  ${env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"}: required with ${env.S3_ACCESS_KEY_ID ? "S3_ACCESS_KEY_ID" : "S3_SECRET_ACCESS_KEY"}`,
    );
  }
  if (problems.length) throw new EnvError(`Invalid environment:\n${problems.join("\n")}`);
  if (!env.S3_BUCKET) return null;
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT?.replace(/\/$/, ""),
    // Self-hosted stores ignore the region but the SDK needs one to sign.
    region: env.S3_REGION ?? "us-east-1",
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  };
}

/**
 * Plain-HTTP uploads from loopback are for a server nobody else reaches: one
 * whose public address is a loopback origin. A deployment with a real APP_URL
 * must not start with the setting (issue 21: "refuses to start with it").
 */
function checkHttpLoopback(env: z.infer<typeof ZEnv>, appUrl: string) {
  if (!env.ALLOW_HTTP_LOOPBACK || isLoopbackOrigin(appUrl)) return;
  throw new EnvError(
    `Invalid environment:\n  ALLOW_HTTP_LOOPBACK: only for a local run whose APP_URL is a loopback origin (http://localhost:PORT, http://127.0.0.1:PORT or http://[::1]:PORT); APP_URL is ${appUrl}. Unset ALLOW_HTTP_LOOPBACK: a deployment takes uploads over HTTPS only`,
  );
}

/** Webhooks to loopback endpoints likewise: only a server nobody else reaches may post to its own machine (issue 30 §1). */
function checkWebhookLoopback(env: z.infer<typeof ZEnv>, appUrl: string) {
  if (!env.WEBHOOK_ALLOW_LOOPBACK || isLoopbackOrigin(appUrl)) return;
  throw new EnvError(
    `Invalid environment:\n  WEBHOOK_ALLOW_LOOPBACK: only for a local run whose APP_URL is a loopback origin (http://localhost:PORT, http://127.0.0.1:PORT or http://[::1]:PORT); APP_URL is ${appUrl}. Unset WEBHOOK_ALLOW_LOOPBACK: a deployment sends webhooks to public https:// URLs only (\`paddle-results listen\` forwards events to a developer's machine)`,
  );
}

/** The keyring's structure is checked at start too: a bad SVC_KEYRING must not wait for the first upload. */
function checkKeyring(env: z.infer<typeof ZEnv>) {
  if (!env.SVC_KEYRING) return;
  try {
    loadKeyring({ SVC_KEYRING: env.SVC_KEYRING, SVC_DISABLE_DEV_KEY: env.SVC_DISABLE_DEV_KEY ? "1" : "0" });
  } catch (error) {
    throw new EnvError(`Invalid environment:\n  SVC_KEYRING: ${(error as Error).message.replace(/^SVC_KEYRING:? ?/, "")}`);
  }
}

/**
 * Presence of Inngest configuration means a real Inngest server. Outside dev
 * mode both keys are needed (one to send events, one to accept calls), so a
 * half-configured deployment fails at start instead of dropping events.
 */
function decideJobsRunner(env: z.infer<typeof ZEnv>): { runner: JobsRunner } {
  const devValue = env.INNGEST_DEV?.toLowerCase();
  const isDev = devValue !== undefined && devValue !== "0" && devValue !== "false";
  const anyServerSetting = Boolean(env.INNGEST_EVENT_KEY || env.INNGEST_SIGNING_KEY || env.INNGEST_BASE_URL);
  if (!isDev && !anyServerSetting) return { runner: "embedded" };
  if (!isDev) {
    const missing = (["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY"] as const).filter((name) => !env[name]);
    if (missing.length) {
      const lines = missing.map(
        (name) => `  ${name}: required when an Inngest server is configured (or set INNGEST_DEV=1 for the dev server)`,
      );
      throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
    }
  }
  return { runner: "inngest" };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}
