import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("environment", () => {
  it("defaults to PGlite in .data on port 3000", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.dataDir.endsWith(".data")).toBe(true);
    expect(env.PORT).toBe(3000);
    expect(env.appUrl).toBe("http://localhost:3000");
  });

  it("names every bad variable in one message", () => {
    const error = (() => {
      try {
        parseEnv({ PORT: "http", DATABASE_URL: "mysql://x", APP_URL: "https://example.com/", AUTH_SECRET: "short" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    for (const name of ["PORT", "DATABASE_URL", "APP_URL", "AUTH_SECRET"]) expect(error!.message).toContain(name);
  });

  it("treats empty values as unset and accepts NEXTAUTH_SECRET as the secret", () => {
    const env = parseEnv({ DATABASE_URL: "", NEXTAUTH_SECRET: "x".repeat(40), PORT: "4100" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_SECRET).toBe("x".repeat(40));
    expect(env.appUrl).toBe("http://localhost:4100");
  });

  it("parses the API limits, with their documented defaults", () => {
    const defaults = parseEnv({});
    expect([
      defaults.RESULTS_API_RATE_LIMIT,
      defaults.RESULTS_API_UPLOAD_RATE_LIMIT,
      defaults.RESULTS_API_PDF_RATE_LIMIT,
      defaults.DATA_API_RATE_LIMIT,
    ]).toEqual([100, 10, 20, 300]);
    expect(defaults.RESULTS_API_MAX_UPLOAD_BYTES).toBe(64 * 1024 * 1024);
    const set = parseEnv({
      RESULTS_API_RATE_LIMIT: "7",
      RESULTS_API_UPLOAD_RATE_LIMIT: "2",
      RESULTS_API_PDF_RATE_LIMIT: "3",
      DATA_API_RATE_LIMIT: "1000",
      RESULTS_API_MAX_UPLOAD_BYTES: "2000000",
    });
    expect([
      set.RESULTS_API_RATE_LIMIT,
      set.RESULTS_API_UPLOAD_RATE_LIMIT,
      set.RESULTS_API_PDF_RATE_LIMIT,
      set.DATA_API_RATE_LIMIT,
      set.RESULTS_API_MAX_UPLOAD_BYTES,
    ]).toEqual([7, 2, 3, 1000, 2_000_000]);
  });

  it("refuses a typo in a limit at start instead of refusing every request later (NaN)", () => {
    for (const [name, value] of [
      ["RESULTS_API_RATE_LIMIT", "1OO"],
      ["RESULTS_API_UPLOAD_RATE_LIMIT", "ten"],
      ["RESULTS_API_PDF_RATE_LIMIT", "0"],
      ["RESULTS_API_MAX_UPLOAD_BYTES", "64MiB"],
      ["DATA_API_RATE_LIMIT", "-5"],
      ["DATA_API_RATE_LIMIT", "1.5"],
      ["SVC_DISABLE_DEV_KEY", "yes"],
    ] as const) {
      expect(() => parseEnv({ [name]: value }), `${name}=${value}`).toThrow(EnvError);
      expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}: must`));
    }
  });

  it("checks the keyring's structure at start", () => {
    const key = Buffer.alloc(32, 1).toString("base64");
    expect(parseEnv({ SVC_KEYRING: Buffer.from(JSON.stringify({ 7: key })).toString("base64") }).SVC_KEYRING).toBeDefined();
    expect(() => parseEnv({ SVC_KEYRING: "not base64 json" })).toThrow(/SVC_KEYRING/);
    expect(() => parseEnv({ SVC_KEYRING: Buffer.from(JSON.stringify({ 7: "c2hvcnQ=" })).toString("base64") })).toThrow(
      /SVC_KEYRING: key 7 must be 32 bytes/,
    );
  });
  it("takes a map tile URL template only with {z}, {x} and {y}", () => {
    expect(parseEnv({ MAP_TILE_URL: "https://tiles.example.org/{z}/{x}/{y}.png" }).MAP_TILE_URL).toBe(
      "https://tiles.example.org/{z}/{x}/{y}.png",
    );
    expect(parseEnv({}).MAP_TILE_URL).toBeUndefined();
    for (const bad of ["https://tiles.example.org/{z}/{x}.png", "ftp://tiles/{z}/{x}/{y}", "javascript:alert(1)//{z}{x}{y}"]) {
      expect(() => parseEnv({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
  });
  it("keeps blobs in Postgres without S3_BUCKET and validates the S3 settings with it", () => {
    expect(parseEnv({}).s3).toBeNull();
    expect(parseEnv({ S3_BUCKET: "svc-blobs" }).s3).toEqual({
      bucket: "svc-blobs",
      endpoint: undefined,
      region: "us-east-1",
      credentials: undefined,
      forcePathStyle: false,
    });
    expect(
      parseEnv({
        S3_BUCKET: "svc-blobs",
        S3_ENDPOINT: "http://127.0.0.1:9000/",
        S3_REGION: "eu-west-1",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
        S3_FORCE_PATH_STYLE: "1",
      }).s3,
    ).toEqual({
      bucket: "svc-blobs",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      credentials: { accessKeyId: "id", secretAccessKey: "secret" },
      forcePathStyle: true,
    });
    expect(() => parseEnv({ S3_BUCKET: "A_Bucket" })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => parseEnv({ S3_BUCKET: "ok-bucket", S3_ENDPOINT: "s3.example.com" })).toThrow(/S3_ENDPOINT: must be an http/);
    expect(() => parseEnv({ S3_BUCKET: "ok-bucket", S3_FORCE_PATH_STYLE: "yes" })).toThrow(/S3_FORCE_PATH_STYLE: must be 1 or 0/);
    expect(() => parseEnv({ S3_BUCKET: "ok-bucket", S3_ACCESS_KEY_ID: "id" })).toThrow(
      /S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/,
    );
    expect(() => parseEnv({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/S3_ENDPOINT: set S3_BUCKET too/);
  });

  it("ALLOW_HTTP_LOOPBACK: on for a loopback APP_URL, a start-up error with any other", () => {
    expect(parseEnv({}).ALLOW_HTTP_LOOPBACK).toBe(false);
    expect(parseEnv({ ALLOW_HTTP_LOOPBACK: "1" }).ALLOW_HTTP_LOOPBACK).toBe(true);
    expect(parseEnv({ ALLOW_HTTP_LOOPBACK: "1", APP_URL: "http://127.0.0.1:3350" }).ALLOW_HTTP_LOOPBACK).toBe(true);
    expect(() => parseEnv({ ALLOW_HTTP_LOOPBACK: "yes" })).toThrow(/ALLOW_HTTP_LOOPBACK: must be 1 or 0/);
    expect(() => parseEnv({ ALLOW_HTTP_LOOPBACK: "1", APP_URL: "https://results.example.com" })).toThrow(
      /ALLOW_HTTP_LOOPBACK: only for a local run whose APP_URL is a loopback origin.*APP_URL is https:\/\/results\.example\.com/,
    );
    expect(parseEnv({ ALLOW_HTTP_LOOPBACK: "0", APP_URL: "https://results.example.com" }).ALLOW_HTTP_LOOPBACK).toBe(false);
  });

  it("WEBHOOK_ALLOW_LOOPBACK: on for a loopback APP_URL, a start-up error with any other (issue 30 §1)", () => {
    expect(parseEnv({}).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
    expect(parseEnv({ WEBHOOK_ALLOW_LOOPBACK: "1" }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    expect(parseEnv({ WEBHOOK_ALLOW_LOOPBACK: "1", APP_URL: "http://[::1]:3350" }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    expect(() => parseEnv({ WEBHOOK_ALLOW_LOOPBACK: "1", APP_URL: "https://results.example.com" })).toThrow(
      /WEBHOOK_ALLOW_LOOPBACK: only for a local run whose APP_URL is a loopback origin.*APP_URL is https:\/\/results\.example\.com/,
    );
    expect(parseEnv({ WEBHOOK_ALLOW_LOOPBACK: "0", APP_URL: "https://results.example.com" }).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
  });
});
