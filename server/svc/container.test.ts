import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deflateRawSync } from "node:zlib";
import { decodeSvc, deriveFileKey, encodeHeader, encodeSvc, MAX_INFLATED_BYTES, sealPayload } from "./container";
import { InvalidSvcError } from "./errors";
import { DEV_MASTER_KEY, loadKeyring } from "./keyring";

const FIXTURES = path.join(import.meta.dirname, "../../test/fixtures/svc");
const reference = JSON.parse(fs.readFileSync(path.join(FIXTURES, "reference-v1.json"), "utf8"));
const referenceBytes = fs.readFileSync(path.join(FIXTURES, "reference-v1.svc"));
const keyring = loadKeyring({});

const EXPECTED_CODES: Record<string, string> = {
  "too-short.svc": "too_short",
  "bad-magic.svc": "bad_magic",
  "bad-version.svc": "bad_version",
  "bad-rate.svc": "bad_rate",
  "truncated.svc": "tag_mismatch",
  "tampered.svc": "tag_mismatch",
  "tampered-header.svc": "tag_mismatch",
  "unknown-key.svc": "unknown_key",
  "no-end.svc": "no_end",
  "after-end.svc": "after_end",
  "totals-mismatch.svc": "totals_mismatch",
  "overlap.svc": "block_order",
  "unknown-core-chunk.svc": "unknown_chunk",
  "bad-chunk-version.svc": "bad_chunk_version",
  "length-overflow.svc": "chunk_overrun",
  "count-overflow.svc": "block_overrun",
  "too-brief.svc": "too_brief",
  "inflate-bomb.svc": "inflate_too_large",
  "not-deflate.svc": "not_deflate",
};

describe("reference-v1.svc", () => {
  const decoded = decodeSvc(referenceBytes, keyring);

  it("has the development key and file key of the vectors", () => {
    expect(Buffer.from(DEV_MASTER_KEY).toString("hex")).toBe(reference.dev_master_key_hex);
    expect(deriveFileKey(DEV_MASTER_KEY, referenceBytes.subarray(8, 24)).toString("hex")).toBe(reference.file_key_hex);
  });

  it("decodes the header field by field", () => {
    const h = decoded.header;
    const r = reference.header;
    expect(h.formatVersion).toBe(r.format_version);
    expect(h.headerLength).toBe(r.header_length);
    expect(h.deviceSerial).toBe(r.device_serial);
    expect(h.hardwareModel).toBe(r.hardware_model);
    expect(`${h.firmware.major}.${h.firmware.minor}.${h.firmware.patch}`).toBe(r.firmware);
    expect(h.startUnixMs).toBe(r.start_unix_ms);
    expect(new Date(h.startUnixMs).toISOString()).toBe(r.start_iso);
    expect(h.utcOffsetMin).toBe(r.utc_offset_min);
    expect(h.imuHz).toBe(r.imu_hz);
    expect(h.gnssHz).toBe(r.gnss_hz);
    expect(h.hrPeriodMs).toBe(r.hr_period_ms);
    expect(h.keyId).toBe(r.key_id);
    expect(h.flags).toBe(r.flags);
  });

  it("decodes totals, lost samples and skipped extension chunks", () => {
    expect(decoded.imu.total).toBe(reference.totals.imu);
    expect(decoded.gnss.total).toBe(reference.totals.gnss);
    expect(decoded.hrBpm.length).toBe(reference.totals.hr);
    expect(decoded.imuLostSamples).toBe(reference.imu_lost_samples);
    expect(decoded.skippedExtensionChunks).toBe(reference.skipped_extension_chunks);
  });

  it("decodes every IMU sample, with null for lost ones", () => {
    const columns = reference.imu_columns as ("ax" | "ay" | "az" | "gx" | "gy" | "gz")[];
    expect(reference.imu).toHaveLength(decoded.imu.total);
    reference.imu.forEach((expected: number[] | null, i: number) => {
      if (expected === null) {
        expect(decoded.imu.present[i], `sample ${i}`).toBe(0);
      } else {
        expect(decoded.imu.present[i], `sample ${i}`).toBe(1);
        expect(
          columns.map((c) => decoded.imu[c][i]),
          `sample ${i}`,
        ).toEqual(expected);
      }
    });
    const physical = reference.imu_sample_0_physical;
    expect((decoded.imu.ay[0] / 2048) * 9.80665).toBeCloseTo(physical.ay_m_s2, 10);
    expect((decoded.imu.az[0] / 2048) * 9.80665).toBeCloseTo(physical.az_m_s2, 10);
    expect(decoded.imu.gy[0] / 16).toBe(physical.gy_deg_s);
  });

  it("decodes every GNSS record, heart-rate reading and event", () => {
    reference.gnss.forEach((g: Record<string, number>, j: number) => {
      expect(
        {
          lat_e7: decoded.gnss.latE7[j],
          lon_e7: decoded.gnss.lonE7[j],
          speed_mm_s: decoded.gnss.speedMmS[j],
          course_cdeg: decoded.gnss.courseCdeg[j],
          fix: decoded.gnss.fix[j],
          satellites: decoded.gnss.satellites[j],
          hdop_c: decoded.gnss.hdopC[j],
        },
        `fix ${j}`,
      ).toEqual(g);
    });
    expect([...decoded.hrBpm]).toEqual(reference.hr_bpm);
    expect(decoded.events).toEqual(
      reference.events.map((e: { imu_index: number; kind: number }) => ({ imuIndex: e.imu_index, kind: e.kind })),
    );
  });

  it("is refused when the development key is disabled", () => {
    expect(() => decodeSvc(referenceBytes, loadKeyring({ SVC_DISABLE_DEV_KEY: "1" }))).toThrow(InvalidSvcError);
  });
});

describe("invalid files", () => {
  const files = fs.readdirSync(path.join(FIXTURES, "bad")).filter((f) => f.endsWith(".svc"));
  it("covers every fixture", () => expect(files.sort()).toEqual(Object.keys(EXPECTED_CODES).sort()));

  for (const file of Object.keys(EXPECTED_CODES)) {
    it(`rejects ${file} with the typed error, quickly`, () => {
      const bytes = fs.readFileSync(path.join(FIXTURES, "bad", file));
      const t0 = performance.now();
      let caught: unknown;
      try {
        decodeSvc(bytes, keyring);
      } catch (error) {
        caught = error;
      }
      const elapsed = performance.now() - t0;
      expect(caught).toBeInstanceOf(InvalidSvcError);
      expect((caught as InvalidSvcError).message).toBe("not a valid device session");
      expect((caught as InvalidSvcError).code).toBe(EXPECTED_CODES[file]);
      expect(elapsed).toBeLessThan(100);
    });
  }

  it("bounds inflation at 256 MiB even when no chunk header gives the bomb away", () => {
    expect(MAX_INFLATED_BYTES).toBe(256 * 1024 * 1024);
    // 300 MiB of zeros: the first "chunk" is type 0, so only the inflation limit can stop it.
    const ring = loadKeyring({});
    const decoded = decodeSvc(referenceBytes, ring);
    const header = encodeHeader({ ...decoded.header }, 1, decoded.header.nonce);
    const bomb = sealPayload(header, deflateRawSync(Buffer.alloc(300 * 1024 * 1024)), ring);
    const before = process.memoryUsage().rss;
    expect(() => decodeSvc(bomb, ring)).toThrow(expect.objectContaining({ code: "inflate_too_large" }));
    // The output buffer never grows past the limit (plus allocator slack).
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
  });
});

describe("keyring configuration", () => {
  it("adds keys from SVC_KEYRING and rejects bad ones by name", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const ring = loadKeyring({ SVC_KEYRING: Buffer.from(JSON.stringify({ "9": key })).toString("base64") });
    expect([...ring.keys()].sort()).toEqual([0, 9]);
    expect(() => loadKeyring({ SVC_KEYRING: "not base64 json" })).toThrow(/SVC_KEYRING/);
    expect(() => loadKeyring({ SVC_KEYRING: Buffer.from(JSON.stringify({ "9": "c2hvcnQ=" })).toString("base64") })).toThrow(/32 bytes/);
    // The published key passes for a production one under no other id.
    expect(() =>
      loadKeyring({ SVC_KEYRING: Buffer.from(JSON.stringify({ "9": Buffer.from(DEV_MASTER_KEY).toString("base64") })).toString("base64") }),
    ).toThrow(/published development key/);
  });
});

describe("writer", () => {
  it("round-trips content, gaps included, under another key", () => {
    const ring = new Map([[3, new Uint8Array(32).fill(1)]]);
    const decoded = decodeSvc(referenceBytes, keyring);
    const again = decodeSvc(encodeSvc({ ...decoded, header: { ...decoded.header, keyId: 3 } }, ring), ring);
    expect(again.imuLostSamples).toBe(decoded.imuLostSamples);
    expect(Buffer.from(again.imu.ax.buffer).equals(Buffer.from(decoded.imu.ax.buffer))).toBe(true);
    expect(Buffer.from(again.gnss.latE7.buffer).equals(Buffer.from(decoded.gnss.latE7.buffer))).toBe(true);
    expect([...again.hrBpm]).toEqual([...decoded.hrBpm]);
    expect(again.events).toEqual(decoded.events);
  });
});
