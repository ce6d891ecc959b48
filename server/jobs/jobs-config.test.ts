import { describe, expect, it } from "vitest";
import { inngest } from "../../inngest/client";
import { resultStored } from "../events/app-events";
import { inngestFunctions } from "../../inngest";
import { EnvError, parseEnv } from "../config/env";
import { retryAfterAt, sleepEndsAt, defaultRetryBackoff } from "./durations";
import { assertEmbeddable, functionsTriggeredBy, maxAttemptsOf } from "./job-functions";

describe("jobs runner configuration", () => {
  it("is embedded without Inngest variables", () => {
    expect(parseEnv({}).jobsRunner).toBe("embedded");
    expect(parseEnv({ INNGEST_DEV: "0" }).jobsRunner).toBe("embedded");
  });

  it("is a real Inngest server with both keys, or with the dev server", () => {
    expect(parseEnv({ INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "signkey-prod-0a1b" }).jobsRunner).toBe("inngest");
    expect(parseEnv({ INNGEST_DEV: "1" }).jobsRunner).toBe("inngest");
    expect(parseEnv({ INNGEST_DEV: "http://localhost:8288" }).jobsRunner).toBe("inngest");
  });

  it("refuses a half-configured Inngest server and malformed values, naming them", () => {
    expect(() => parseEnv({ INNGEST_EVENT_KEY: "evt" })).toThrow(/INNGEST_SIGNING_KEY/);
    expect(() => parseEnv({ INNGEST_BASE_URL: "http://inngest:8288", INNGEST_SIGNING_KEY: "ab" })).toThrow(/INNGEST_EVENT_KEY/);
    const error = (() => {
      try {
        parseEnv({ INNGEST_SIGNING_KEY: "not hex", INNGEST_BASE_URL: "inngest", INNGEST_DEV: "maybe?" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    for (const name of ["INNGEST_SIGNING_KEY", "INNGEST_BASE_URL", "INNGEST_DEV"]) expect(error!.message).toContain(name);
  });
});

describe("function registry for the embedded runner", () => {
  const byName = inngest.createFunction({ id: "test-by-name", triggers: [{ event: "test/a" }] }, async () => null);
  const byWildcard = inngest.createFunction({ id: "test-by-wildcard", triggers: [{ event: "test/*" }], retries: 0 }, async () => null);

  it("finds the functions an event triggers, by event type, name or wildcard", () => {
    expect(functionsTriggeredBy(inngestFunctions, resultStored.name).map((fn) => fn.id())).toEqual(["build-replay-artifact"]);
    expect(functionsTriggeredBy([byName, byWildcard], "test/a").map((fn) => fn.id())).toEqual(["test-by-name", "test-by-wildcard"]);
    expect(functionsTriggeredBy([byName, byWildcard], "test/b").map((fn) => fn.id())).toEqual(["test-by-wildcard"]);
    expect(functionsTriggeredBy([byName, byWildcard], "other/a")).toEqual([]);
  });

  it("gives the first try plus the function's retries (Inngest's default is 3)", () => {
    expect(maxAttemptsOf(byName)).toBe(4);
    expect(maxAttemptsOf(byWildcard)).toBe(1);
  });

  it("accepts the app's functions and refuses options it would silently ignore", () => {
    for (const fn of inngestFunctions) expect(() => assertEmbeddable(fn)).not.toThrow();
    const cron = inngest.createFunction({ id: "test-cron", triggers: [{ cron: "0 * * * *" }] }, async () => null);
    const debounced = inngest.createFunction(
      { id: "test-debounced", triggers: [{ event: "test/a" }], debounce: { period: "1m" } },
      async () => null,
    );
    const conditional = inngest.createFunction(
      { id: "test-if", triggers: [{ event: "test/a", if: "event.data.x == 1" }] },
      async () => null,
    );
    expect(() => assertEmbeddable(cron)).toThrow(/cron triggers/);
    expect(() => assertEmbeddable(debounced)).toThrow(/`debounce`/);
    expect(() => assertEmbeddable(conditional)).toThrow(/`if` expressions/);
  });
});

describe("runner durations", () => {
  const now = Date.parse("2026-05-01T12:00:00Z");

  it("reads the SDK's sleep encodings", () => {
    expect(sleepEndsAt("1d2h3m4s", now).getTime() - now).toBe(((24 + 2) * 3600 + 3 * 60 + 4) * 1000);
    expect(sleepEndsAt("2026-05-02T00:00:00.000Z", now).toISOString()).toBe("2026-05-02T00:00:00.000Z");
    expect(() => sleepEndsAt("soon", now)).toThrow(/Unreadable/);
  });

  it("reads RetryAfterError delays in seconds or as a time", () => {
    expect(retryAfterAt("30", now).getTime() - now).toBe(30_000);
    expect(retryAfterAt("2026-05-01T13:00:00.000Z", now).toISOString()).toBe("2026-05-01T13:00:00.000Z");
  });

  it("backs off exponentially within bounds", () => {
    for (let i = 0; i < 20; i += 1) {
      expect(defaultRetryBackoff(1)).toBeGreaterThanOrEqual(1_600);
      expect(defaultRetryBackoff(1)).toBeLessThanOrEqual(2_400);
      expect(defaultRetryBackoff(3)).toBeGreaterThanOrEqual(25_600);
      expect(defaultRetryBackoff(30)).toBeLessThanOrEqual(12 * 60_000);
    }
  });
});
