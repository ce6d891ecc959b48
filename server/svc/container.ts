import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { constants as zlibConstants, deflateRawSync, inflateRawSync } from "node:zlib";
import { InvalidSvcError, type InvalidSvcCode } from "./errors";
import type { DecodedSvc, GnssStream, ImuStream, Keyring, SvcContent, SvcEvent, SvcHeader } from "./types";

/**
 * The `.svc` container, format version 1 (docs/svc-format.md): header ‖
 * AES-256-GCM ciphertext ‖ tag; the plaintext is an optionally raw-deflated
 * chunk stream. The decoder never trusts a length before checking it against
 * the bytes that remain and never allocates from an unchecked count.
 */
export const HEADER_LENGTH = 64;
const TAG_LENGTH = 16;
const MIN_FILE_LENGTH = 80;
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
const INFLATE_CHUNK_BYTES = 1024 * 1024;
const MIN_DURATION_S = 10;
const MAX_DURATION_S = 6 * 60 * 60;

const CHUNK = { imu: 0x01, gnss: 0x02, hr: 0x03, event: 0x04, end: 0x7f } as const;
const RECORD_BYTES = { imu: 12, gnss: 16, hr: 1 } as const;
type StreamName = keyof typeof RECORD_BYTES;

const fail = (code: InvalidSvcCode, reason: string): never => {
  throw new InvalidSvcError(code, reason);
};

export function deriveFileKey(masterKey: Uint8Array, serialBytes: Uint8Array): Buffer {
  return Buffer.from(hkdfSync("sha256", masterKey, serialBytes, "svc1 file key", 32));
}

function parseHeader(bytes: Buffer): SvcHeader {
  if (bytes.length < MIN_FILE_LENGTH) fail("too_short", `${bytes.length} bytes, at least ${MIN_FILE_LENGTH} needed`);
  if (bytes.toString("latin1", 0, 4) !== "SVC1") fail("bad_magic", "magic is not SVC1");
  const formatVersion = bytes.readUInt16LE(4);
  if (formatVersion !== 1) fail("bad_version", `format_version ${formatVersion}`);
  const headerLength = bytes.readUInt16LE(6);
  if (headerLength !== HEADER_LENGTH) fail("bad_header_length", `header_length ${headerLength}`);
  const imuHz = bytes.readUInt16LE(40);
  const gnssHz = bytes.readUInt16LE(42);
  const hrPeriodMs = bytes.readUInt16LE(44);
  if (imuHz < 25 || imuHz > 1000) fail("bad_rate", `imu_hz ${imuHz} outside 25..1000`);
  if (gnssHz < 1 || gnssHz > 20) fail("bad_rate", `gnss_hz ${gnssHz} outside 1..20`);
  if (hrPeriodMs < 250 || hrPeriodMs > 5000) fail("bad_rate", `hr_period_ms ${hrPeriodMs} outside 250..5000`);
  const flags = bytes.readUInt16LE(62);
  if (flags & ~1) fail("bad_flags", `unknown flag bits 0x${flags.toString(16)}`);
  const startUnixMs = Number(bytes.readBigInt64LE(30));
  return {
    formatVersion: 1,
    headerLength: 64,
    deviceSerial: bytes.toString("latin1", 8, 24).replace(/\0+$/, ""),
    hardwareModel: bytes.readUInt16LE(24),
    firmware: { major: bytes[26], minor: bytes[27], patch: bytes.readUInt16LE(28) },
    startUnixMs,
    utcOffsetMin: bytes.readInt16LE(38),
    imuHz,
    gnssHz,
    hrPeriodMs,
    keyId: bytes.readUInt32LE(46),
    nonce: new Uint8Array(bytes.subarray(50, 62)),
    flags,
  };
}

function decrypt(bytes: Buffer, header: SvcHeader, keyring: Keyring): Buffer {
  const master = keyring.get(header.keyId);
  if (!master) fail("unknown_key", `key id ${header.keyId} is not in the keyring`);
  const headerBytes = bytes.subarray(0, HEADER_LENGTH);
  const key = deriveFileKey(master!, bytes.subarray(8, 24));
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(50, 62));
  decipher.setAAD(headerBytes);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_LENGTH));
  try {
    const body = decipher.update(bytes.subarray(HEADER_LENGTH, bytes.length - TAG_LENGTH));
    // GCM's final() only checks the tag (no bytes): no copy of the whole payload to join nothing.
    const tail = decipher.final();
    return tail.length ? Buffer.concat([body, tail]) : body;
  } catch {
    return fail("tag_mismatch", "the authentication tag does not verify (tampered or truncated)");
  }
}

/**
 * Cheap early refusal: inflate only the first kilobyte of compressed data
 * (a truncated stream inflates as far as it goes with a sync flush) and read
 * the chunk headers found there. A chunk that declares a body larger than the
 * inflation limit can never be valid, so a bomb built that way is refused in
 * microseconds instead of after inflating 256 MiB.
 */
function refuseImpossibleChunkLengths(plaintext: Buffer): void {
  let prefix: Buffer;
  try {
    prefix = inflateRawSync(plaintext.subarray(0, 1024), { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 2 * 1024 * 1024 });
  } catch {
    return; // the full inflate below decides
  }
  // Deflate expands at most ~1032:1, so a small compressed payload cannot hold a huge chunk either.
  const mayExceedLimit = plaintext.length * 1032 > MAX_INFLATED_BYTES;
  for (let pos = 0; pos + 8 <= prefix.length;) {
    const bodyLength = prefix.readUInt32LE(pos + 4);
    if (bodyLength > MAX_INFLATED_BYTES - pos - 8) {
      if (mayExceedLimit)
        fail(
          "inflate_too_large",
          `chunk at offset ${pos} declares ${bodyLength} bytes: the payload would inflate past ${MAX_INFLATED_BYTES} bytes`,
        );
      fail("chunk_overrun", `chunk at offset ${pos} declares ${bodyLength} bytes, more than the payload can hold`);
    }
    pos += 8 + bodyLength;
  }
}

function inflate(plaintext: Buffer): Buffer {
  refuseImpossibleChunkLengths(plaintext);
  try {
    // maxOutputLength bounds memory: a bomb stops at the limit instead of growing. zlib's default
    // 16 KiB output chunks made 600 buffers for two hours, joined by one more copy; 1 MiB makes ten.
    return inflateRawSync(plaintext, { maxOutputLength: MAX_INFLATED_BYTES, chunkSize: INFLATE_CHUNK_BYTES });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError)
      return fail("inflate_too_large", `payload inflates past ${MAX_INFLATED_BYTES} bytes`);
    return fail("not_deflate", `payload does not inflate: ${(error as Error).message}`);
  }
}

interface BlockRef {
  firstIndex: number;
  count: number;
  /** Offset of the first record in the payload. */
  offset: number;
}

interface ChunkWalk {
  blocks: Record<StreamName, BlockRef[]>;
  events: SvcEvent[];
  totals: Record<StreamName, number>;
  skippedExtensionChunks: number;
}

function walkChunks(payload: Buffer): ChunkWalk {
  const blocks: ChunkWalk["blocks"] = { imu: [], gnss: [], hr: [] };
  const streamEnd: Record<StreamName, number> = { imu: 0, gnss: 0, hr: 0 };
  const events: SvcEvent[] = [];
  let totals: Record<StreamName, number> | null = null;
  let skippedExtensionChunks = 0;
  let pos = 0;
  while (pos < payload.length) {
    if (totals) fail("after_end", `a chunk follows the end chunk at offset ${pos}`);
    if (payload.length - pos < 8) fail("chunk_overrun", `chunk header at offset ${pos} runs past the payload`);
    const type = payload[pos];
    const version = payload[pos + 1];
    const bodyLength = payload.readUInt32LE(pos + 4);
    const bodyStart = pos + 8;
    if (bodyLength > payload.length - bodyStart)
      fail("chunk_overrun", `chunk at offset ${pos} declares ${bodyLength} bytes, ${payload.length - bodyStart} remain`);
    pos = bodyStart + bodyLength;
    if (type >= 0x40 && type <= 0x7e) {
      skippedExtensionChunks++;
      continue;
    }
    if (version !== 1) fail("bad_chunk_version", `chunk type 0x${type.toString(16)} version ${version}`);
    const stream: StreamName | null = type === CHUNK.imu ? "imu" : type === CHUNK.gnss ? "gnss" : type === CHUNK.hr ? "hr" : null;
    if (stream) {
      if (bodyLength < 8) fail("block_overrun", `${stream} block at offset ${bodyStart - 8} is shorter than its header`);
      const firstIndex = payload.readUInt32LE(bodyStart);
      const count = payload.readUInt16LE(bodyStart + 4);
      if (8 + count * RECORD_BYTES[stream] > bodyLength)
        fail(
          "block_overrun",
          `${stream} block declares ${count} records, its body holds ${Math.floor((bodyLength - 8) / RECORD_BYTES[stream])}`,
        );
      if (firstIndex < streamEnd[stream])
        fail("block_order", `${stream} block at index ${firstIndex} overlaps or precedes index ${streamEnd[stream]}`);
      blocks[stream].push({ firstIndex, count, offset: bodyStart + 8 });
      streamEnd[stream] = firstIndex + count;
    } else if (type === CHUNK.event) {
      if (bodyLength < 8) fail("block_overrun", "event chunk shorter than 8 bytes");
      events.push({ imuIndex: payload.readUInt32LE(bodyStart), kind: payload[bodyStart + 4] });
    } else if (type === CHUNK.end) {
      if (bodyLength < 16) fail("block_overrun", "end chunk shorter than 16 bytes");
      totals = { imu: payload.readUInt32LE(bodyStart), gnss: payload.readUInt32LE(bodyStart + 4), hr: payload.readUInt32LE(bodyStart + 8) };
    } else {
      fail("unknown_chunk", `unknown chunk type 0x${type.toString(16)} at offset ${bodyStart - 8}`);
    }
  }
  if (!totals) return fail("no_end", "no end chunk");
  for (const stream of ["imu", "gnss", "hr"] as const) {
    if (totals[stream] !== streamEnd[stream])
      fail("totals_mismatch", `${stream}_total ${totals[stream]}, stream ends at ${streamEnd[stream]}`);
  }
  return { blocks, events, totals, skippedExtensionChunks };
}

function checkDurations(header: SvcHeader, totals: Record<StreamName, number>): void {
  const imuSeconds = totals.imu / header.imuHz;
  if (imuSeconds < MIN_DURATION_S) fail("too_brief", `${imuSeconds.toFixed(2)} s of IMU samples, at least ${MIN_DURATION_S} s needed`);
  if (imuSeconds > MAX_DURATION_S) fail("too_long", `${imuSeconds.toFixed(0)} s of IMU samples, at most ${MAX_DURATION_S} s`);
  // The other streams cover the same recording; bounding them keeps allocations tied to real durations.
  if (totals.gnss / header.gnssHz > imuSeconds + 60) fail("malformed", `gnss stream of ${totals.gnss} fixes outlasts the IMU stream`);
  if ((totals.hr * header.hrPeriodMs) / 1000 > imuSeconds + 60)
    fail("malformed", `heart-rate stream of ${totals.hr} readings outlasts the IMU stream`);
}

function fillStreams(payload: Buffer, walk: ChunkWalk) {
  const n = walk.totals.imu;
  const imu: ImuStream = {
    total: n,
    present: new Uint8Array(n),
    ax: new Int16Array(n),
    ay: new Int16Array(n),
    az: new Int16Array(n),
    gx: new Int16Array(n),
    gy: new Int16Array(n),
    gz: new Int16Array(n),
  };
  // A DataView's reads compile to plain loads; Buffer's readInt16LE checks its offset on every call.
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  let presentCount = 0;
  for (const block of walk.blocks.imu) {
    let p = block.offset;
    for (let i = block.firstIndex, end = block.firstIndex + block.count; i < end; i++, p += 12) {
      imu.present[i] = 1;
      imu.ax[i] = view.getInt16(p, true);
      imu.ay[i] = view.getInt16(p + 2, true);
      imu.az[i] = view.getInt16(p + 4, true);
      imu.gx[i] = view.getInt16(p + 6, true);
      imu.gy[i] = view.getInt16(p + 8, true);
      imu.gz[i] = view.getInt16(p + 10, true);
    }
    presentCount += block.count;
  }
  const g = walk.totals.gnss;
  const gnss: GnssStream = {
    total: g,
    latE7: new Int32Array(g),
    lonE7: new Int32Array(g),
    speedMmS: new Uint16Array(g),
    courseCdeg: new Uint16Array(g),
    fix: new Uint8Array(g),
    satellites: new Uint8Array(g),
    hdopC: new Uint16Array(g),
  };
  for (const block of walk.blocks.gnss) {
    let p = block.offset;
    for (let j = block.firstIndex, end = block.firstIndex + block.count; j < end; j++, p += 16) {
      gnss.latE7[j] = view.getInt32(p, true);
      gnss.lonE7[j] = view.getInt32(p + 4, true);
      gnss.speedMmS[j] = view.getUint16(p + 8, true);
      gnss.courseCdeg[j] = view.getUint16(p + 10, true);
      gnss.fix[j] = payload[p + 12];
      gnss.satellites[j] = payload[p + 13];
      gnss.hdopC[j] = view.getUint16(p + 14, true);
    }
  }
  const hrBpm = new Uint8Array(walk.totals.hr);
  for (const block of walk.blocks.hr) hrBpm.set(payload.subarray(block.offset, block.offset + block.count), block.firstIndex);
  return { imu, gnss, hrBpm, imuLostSamples: n - presentCount };
}

/** Decodes a file, or throws InvalidSvcError — never any other error. */
export function decodeSvc(input: Uint8Array, keyring: Keyring): DecodedSvc {
  try {
    const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const header = parseHeader(bytes);
    const plaintext = decrypt(bytes, header, keyring);
    const payload = header.flags & 1 ? inflate(plaintext) : plaintext;
    const walk = walkChunks(payload);
    checkDurations(header, walk.totals);
    const streams = fillStreams(payload, walk);
    return { header, ...streams, events: walk.events, skippedExtensionChunks: walk.skippedExtensionChunks };
  } catch (error) {
    if (error instanceof InvalidSvcError) throw error;
    throw new InvalidSvcError(
      "malformed",
      `unexpected ${(error as Error)?.name ?? "error"}: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}

// ---------------------------------------------------------------------------
// Writing: the simulator, the fuzzer and tests seal files the way a unit does.

const IMU_BLOCK = 1000;
const GNSS_BLOCK = 500;
const HR_BLOCK = 600;

function chunk(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head[0] = type;
  head[1] = 1;
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

function blockHeader(firstIndex: number, count: number): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(firstIndex, 0);
  head.writeUInt16LE(count, 4);
  return head;
}

/** The plaintext chunk stream of a content (before deflate and encryption). */
export function encodeChunks(content: SvcContent, extraChunks: Buffer[] = []): Buffer {
  const parts: Buffer[] = [];
  const { imu, gnss, hrBpm } = content;
  // IMU: runs of present samples, cut at IMU_BLOCK; absent samples are gaps.
  for (let i = 0; i < imu.total;) {
    if (!imu.present[i]) {
      i++;
      continue;
    }
    let end = i;
    while (end < imu.total && imu.present[end] && end - i < IMU_BLOCK) end++;
    const body = Buffer.alloc(8 + (end - i) * 12);
    blockHeader(i, end - i).copy(body);
    for (let k = i, p = 8; k < end; k++, p += 12) {
      body.writeInt16LE(imu.ax[k], p);
      body.writeInt16LE(imu.ay[k], p + 2);
      body.writeInt16LE(imu.az[k], p + 4);
      body.writeInt16LE(imu.gx[k], p + 6);
      body.writeInt16LE(imu.gy[k], p + 8);
      body.writeInt16LE(imu.gz[k], p + 10);
    }
    parts.push(chunk(CHUNK.imu, body));
    i = end;
  }
  for (let j = 0; j < gnss.total; j += GNSS_BLOCK) {
    const end = Math.min(gnss.total, j + GNSS_BLOCK);
    const body = Buffer.alloc(8 + (end - j) * 16);
    blockHeader(j, end - j).copy(body);
    for (let k = j, p = 8; k < end; k++, p += 16) {
      body.writeInt32LE(gnss.latE7[k], p);
      body.writeInt32LE(gnss.lonE7[k], p + 4);
      body.writeUInt16LE(gnss.speedMmS[k], p + 8);
      body.writeUInt16LE(gnss.courseCdeg[k], p + 10);
      body[p + 12] = gnss.fix[k];
      body[p + 13] = gnss.satellites[k];
      body.writeUInt16LE(gnss.hdopC[k], p + 14);
    }
    parts.push(chunk(CHUNK.gnss, body));
  }
  for (let k = 0; k < hrBpm.length; k += HR_BLOCK) {
    const end = Math.min(hrBpm.length, k + HR_BLOCK);
    parts.push(chunk(CHUNK.hr, Buffer.concat([blockHeader(k, end - k), Buffer.from(hrBpm.subarray(k, end))])));
  }
  for (const event of content.events) {
    const body = Buffer.alloc(8);
    body.writeUInt32LE(event.imuIndex, 0);
    body[4] = event.kind;
    parts.push(chunk(CHUNK.event, body));
  }
  parts.push(...extraChunks);
  let imuEnd = 0;
  for (let i = imu.total - 1; i >= 0; i--) {
    if (imu.present[i]) {
      imuEnd = i + 1;
      break;
    }
  }
  const end = Buffer.alloc(16);
  end.writeUInt32LE(imuEnd, 0);
  end.writeUInt32LE(gnss.total, 4);
  end.writeUInt32LE(hrBpm.length, 8);
  parts.push(chunk(CHUNK.end, end));
  return Buffer.concat(parts);
}

export function encodeHeader(header: SvcContent["header"], flags: number, nonce: Uint8Array): Buffer {
  const out = Buffer.alloc(HEADER_LENGTH);
  out.write("SVC1", 0, "latin1");
  out.writeUInt16LE(1, 4);
  out.writeUInt16LE(HEADER_LENGTH, 6);
  out.write(header.deviceSerial.slice(0, 16), 8, "latin1");
  out.writeUInt16LE(header.hardwareModel, 24);
  out[26] = header.firmware.major;
  out[27] = header.firmware.minor;
  out.writeUInt16LE(header.firmware.patch, 28);
  out.writeBigInt64LE(BigInt(header.startUnixMs), 30);
  out.writeInt16LE(header.utcOffsetMin, 38);
  out.writeUInt16LE(header.imuHz, 40);
  out.writeUInt16LE(header.gnssHz, 42);
  out.writeUInt16LE(header.hrPeriodMs, 44);
  out.writeUInt32LE(header.keyId, 46);
  Buffer.from(nonce).copy(out, 50, 0, 12);
  out.writeUInt16LE(flags, 62);
  return out;
}

/** Seals a plaintext chunk stream under the header's key id. */
export function sealPayload(headerBytes: Buffer, plaintext: Buffer, keyring: Keyring): Uint8Array {
  const keyId = headerBytes.readUInt32LE(46);
  const master = keyring.get(keyId);
  if (!master) throw new Error(`key id ${keyId} is not in the keyring`);
  const key = deriveFileKey(master, headerBytes.subarray(8, 24));
  const cipher = createCipheriv("aes-256-gcm", key, headerBytes.subarray(50, 62));
  cipher.setAAD(headerBytes);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([headerBytes, ciphertext, cipher.getAuthTag()]));
}

/** Writes a valid file: chunks, raw deflate (flag bit 0, the default), AES-256-GCM. */
export function encodeSvc(content: SvcContent, keyring: Keyring, options: { extraChunks?: Buffer[] } = {}): Uint8Array {
  const flags = content.header.flags ?? 1;
  const headerBytes = encodeHeader(content.header, flags, content.header.nonce ?? randomBytes(12));
  const chunks = encodeChunks(content, options.extraChunks);
  const plaintext = flags & 1 ? deflateRawSync(chunks, { level: 6 }) : chunks;
  return sealPayload(headerBytes, plaintext, keyring);
}

/** Opens a file's plaintext chunk stream (inflated) — for the fuzzer's re-sealed mutations. */
export function openPayload(bytes: Uint8Array, keyring: Keyring): { headerBytes: Buffer; chunks: Buffer; flags: number } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = parseHeader(buffer);
  const plaintext = decrypt(buffer, header, keyring);
  return {
    headerBytes: Buffer.from(buffer.subarray(0, HEADER_LENGTH)),
    chunks: header.flags & 1 ? inflate(plaintext) : plaintext,
    flags: header.flags,
  };
}
