import fs from "node:fs";
import { decodeSvc } from "../container";
import { getKeyring } from "../../config/keyring";
import { CliUsageError, parse } from "./args";

/** Header fields, totals and lost samples of a file. The serial is shown: this is an operator tool, not an API. */
export async function runInspect(argv: string[]) {
  const { positionals } = parse(argv, {});
  if (positionals.length !== 1) throw new CliUsageError("usage: svc inspect FILE");
  const decoded = decodeSvc(fs.readFileSync(positionals[0]), getKeyring());
  const { header, imu, gnss, hrBpm } = decoded;
  let fixes = 0;
  for (let j = 0; j < gnss.total; j++) if (gnss.fix[j]) fixes++;
  return {
    header: {
      format_version: header.formatVersion,
      header_length: header.headerLength,
      device_serial: header.deviceSerial,
      hardware_model: header.hardwareModel,
      firmware: `${header.firmware.major}.${header.firmware.minor}.${header.firmware.patch}`,
      start_unix_ms: header.startUnixMs,
      start_iso: new Date(header.startUnixMs).toISOString(),
      utc_offset_min: header.utcOffsetMin,
      imu_hz: header.imuHz,
      gnss_hz: header.gnssHz,
      hr_period_ms: header.hrPeriodMs,
      key_id: header.keyId,
      flags: header.flags,
    },
    totals: { imu: imu.total, gnss: gnss.total, hr: hrBpm.length },
    duration_s: imu.total / header.imuHz,
    imu_lost_samples: decoded.imuLostSamples,
    gnss_fixes: fixes,
    gnss_missing_fixes: gnss.total - fixes,
    hr_readings: hrBpm.reduce((count, bpm) => count + (bpm > 0 ? 1 : 0), 0),
    events: decoded.events.map((e) => ({ imu_index: e.imuIndex, kind: e.kind })),
    skipped_extension_chunks: decoded.skippedExtensionChunks,
  };
}
