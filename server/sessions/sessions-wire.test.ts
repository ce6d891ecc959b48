import { describe, expect, it } from "vitest";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { processSvc } from "../svc/process/process";
import { simulateSession } from "../svc/simulator/simulate";
import { serializeSessionSummary, ZSessionSummary } from "./sessions-wire";

/**
 * The health projection of the summary (data-api.md "Health data rules"):
 * without health:read, or when the heart rate is not the subject's, nothing
 * derived from heart-rate readings leaves, their presence included.
 */
const keyring = loadKeyring({});
const processed = processSvc(
  encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 41 }).content, keyring),
  { vessel: "K1", distanceM: 200 },
  keyring,
);

describe("serializeSessionSummary", () => {
  it("has heart-rate readings to hide (the simulated unit records a heart rate)", () => {
    expect(processed.data_quality.heart_rate_coverage).toBeGreaterThan(0.5);
    expect(processed.summary.avg_heart_rate).toBeGreaterThan(60);
  });

  it("serves the heart rate and its coverage when allowed", () => {
    const body = ZSessionSummary.parse(serializeSessionSummary(7, processed.summary, processed.data_quality, true, null));
    expect(body.heart_rate).toEqual({ avg_bpm: processed.summary.avg_heart_rate, max_bpm: processed.summary.max_heart_rate });
    expect(body.data_quality.heart_rate_coverage).toBe(processed.data_quality.heart_rate_coverage);
  });

  it("projects away every heart-rate-derived field when not allowed, coverage included", () => {
    const body = ZSessionSummary.parse(serializeSessionSummary(7, processed.summary, processed.data_quality, false, null));
    expect(body.heart_rate).toBeNull();
    expect(body.data_quality.heart_rate_coverage).toBeNull();
    // No other field names or mentions the heart rate.
    const text = JSON.stringify(body);
    expect(text.match(/heart/gi)).toEqual(["heart", "heart"]);
    expect(body.data_quality.warnings.join(" ")).not.toMatch(/heart|pulse|bpm/i);
  });
});
