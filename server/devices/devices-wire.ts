import { z } from "zod";
import { hardwareName, type DeviceFile, type DeviceStatus } from "./devices";

/**
 * Allowlisted serializers of sensor units (data surface). The serial number
 * never leaves: it is not even selected (server/devices/devices.ts). Files
 * are a manifest only: no bytes, no storage keys or blob ids.
 */
export const ZDevice = z.object({
  id: z.number().int(),
  label: z.string().describe("the owner's name for the unit; may be empty"),
  model: z.string().describe("hardware model name, e.g. SVC Pro"),
  firmware: z.string().describe("firmware version last seen, major.minor.patch"),
  first_seen_at: z.string().describe("first upload from the unit, ISO 8601"),
  last_seen_at: z.string().describe("latest upload from the unit, ISO 8601"),
  file_count: z.number().int().describe("original files kept from the unit"),
  last_session_date: z.string().nullable().describe("local date of the latest session it recorded, YYYY-MM-DD"),
});

export function serializeDevice(device: DeviceStatus): z.output<typeof ZDevice> {
  return {
    id: device.id,
    label: device.label,
    model: hardwareName(device.hardwareModel),
    firmware: device.firmware,
    first_seen_at: device.firstSeenAt.toISOString(),
    last_seen_at: device.lastSeenAt.toISOString(),
    file_count: device.fileCount,
    last_session_date: device.lastSessionDate,
  };
}

export const ZDeviceFile = z.object({
  filename: z.string().nullable().describe("the original encrypted .svc file's name as uploaded"),
  byte_size: z.number().int(),
  sha256: z.string().describe("hex SHA-256 of the original bytes, to check a retrieved copy"),
  session_id: z.number().int().describe("the session made from the file"),
  session_date: z.string().describe("local date of that session, YYYY-MM-DD"),
  uploaded_at: z.string().describe("ISO 8601"),
});

export function serializeDeviceFile(file: DeviceFile): z.output<typeof ZDeviceFile> {
  return {
    filename: file.filename,
    byte_size: file.byteSize,
    sha256: file.sha256,
    session_id: file.resultId,
    session_date: file.date,
    uploaded_at: file.uploadedAt.toISOString(),
  };
}
