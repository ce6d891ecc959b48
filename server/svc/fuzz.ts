import { deflateRawSync } from "node:zlib";
import { decodeSvc, openPayload, sealPayload } from "./container";
import { InvalidSvcError } from "./errors";
import { Random } from "./simulator/random";
import type { Keyring } from "./types";

/**
 * A seeded mutator over a valid file (docs/svc-format.md "Fuzzing"). Outer
 * mutations (bit flips, truncation) must die at the tag; re-sealed mutations
 * change the inflated chunk stream and encrypt it again so the tag verifies
 * and the chunk walker itself is exercised. The only acceptable outcomes are
 * a decoded file or InvalidSvcError.
 */
export type FuzzOutcome = "decoded" | "rejected" | { crash: string };

export function mutate(original: Uint8Array, keyring: Keyring, rng: Random): Uint8Array {
  const kind = Math.floor(rng.next() * 6);
  const bytes = Buffer.from(original);
  if (kind === 0) {
    for (let k = 0, flips = 1 + Math.floor(rng.next() * 8); k < flips; k++)
      bytes[Math.floor(rng.next() * bytes.length)] ^= 1 << Math.floor(rng.next() * 8);
    return bytes;
  }
  if (kind === 1) return bytes.subarray(0, Math.floor(rng.next() * bytes.length));
  // Re-sealed mutations of the plaintext chunk stream.
  const { headerBytes, chunks, flags } = openPayload(original, keyring);
  const stream = Buffer.from(chunks);
  const offsets: number[] = [];
  for (let pos = 0; pos + 8 <= stream.length;) {
    offsets.push(pos);
    pos += 8 + stream.readUInt32LE(pos + 4);
  }
  const at = offsets[Math.floor(rng.next() * offsets.length)];
  const pick = (max: number) => Math.floor(rng.next() * max);
  if (kind === 2)
    stream.writeUInt32LE([0, 1, 7, stream.length, 0xffffffff, pick(0xffffffff)][pick(6)], at + 4); // chunk length lies
  else if (kind === 3)
    stream[at] = [0x00, 0x05, 0x3f, 0x40, 0x7e, 0x7f, 0x80, 0xff, pick(256)][pick(9)]; // chunk types
  else if (kind === 4)
    stream[at + 1] = pick(4); // versions
  else {
    // Block internals: first index, count, end totals, random body bytes.
    const body = at + 8;
    const field = pick(4);
    if (field === 0 && body + 4 <= stream.length) stream.writeUInt32LE([0, 1, 1_000_000, 0xffffffff, pick(0xffffffff)][pick(5)], body);
    else if (field === 1 && body + 6 <= stream.length) stream.writeUInt16LE([0, 1, 0xffff, pick(0x10000)][pick(4)], body + 4);
    else for (let k = 0; k < 4; k++) stream[Math.min(stream.length - 1, body + pick(64))] = pick(256);
  }
  const plaintext = flags & 1 ? deflateRawSync(stream) : stream;
  return sealPayload(Buffer.from(headerBytes), plaintext, keyring);
}

export function fuzzOnce(input: Uint8Array, keyring: Keyring): FuzzOutcome {
  try {
    decodeSvc(input, keyring);
    return "decoded";
  } catch (error) {
    if (error instanceof InvalidSvcError) return "rejected";
    return { crash: (error as Error)?.stack ?? String(error) };
  }
}

export function runFuzz(original: Uint8Array, keyring: Keyring, cases: number, seed: number) {
  const rng = new Random(seed);
  const counts = { decoded: 0, rejected: 0, crashes: [] as string[] };
  for (let c = 0; c < cases; c++) {
    let input: Uint8Array;
    try {
      input = mutate(original, keyring, rng);
    } catch (error) {
      counts.crashes.push(`mutator: ${(error as Error).message}`);
      continue;
    }
    const outcome = fuzzOnce(input, keyring);
    if (outcome === "decoded") counts.decoded++;
    else if (outcome === "rejected") counts.rejected++;
    else counts.crashes.push(outcome.crash);
  }
  return counts;
}
