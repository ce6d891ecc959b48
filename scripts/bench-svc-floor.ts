import { createDecipheriv } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { deriveFileKey, HEADER_LENGTH } from "../server/svc/container";
import type { Keyring } from "../server/svc/types";

/** The floor of decoding: AES-GCM decryption and raw inflate, nothing else (no chunk walk, no arrays). */
export function decryptAndInflate(bytes: Uint8Array, keyring: Keyring): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const key = deriveFileKey(keyring.get(buffer.readUInt32LE(46))!, buffer.subarray(8, 24));
  const decipher = createDecipheriv("aes-256-gcm", key, buffer.subarray(50, 62));
  decipher.setAAD(buffer.subarray(0, HEADER_LENGTH));
  decipher.setAuthTag(buffer.subarray(buffer.length - 16));
  const plaintext = Buffer.concat([decipher.update(buffer.subarray(HEADER_LENGTH, buffer.length - 16)), decipher.final()]);
  return inflateRawSync(plaintext);
}
