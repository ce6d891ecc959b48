import { Duplex } from "node:stream";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

/**
 * patches/postgres+3.4.9.patch, proved on postgres.js itself with a scripted
 * server (no database, no timing luck): docs/architecture.md "Lost database
 * connections". Each socket the driver opens is a FakeServerSocket that
 * answers the startup message with AuthenticationOk and ReadyForQuery, a
 * simple query with an empty result, and records every byte the driver sends.
 */
const AUTHENTICATION_OK = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
const SELECT_0 = Buffer.concat([Buffer.from([0x43, 0, 0, 0, 13]), Buffer.from("SELECT 0\0")]);

class FakeServerSocket extends Duplex {
  readonly received: Buffer[] = [];
  private startedUp = false;
  readyState = "open";
  _read() {}
  _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.received.push(chunk);
    // A server answers later, never inside the driver's own write call.
    const answer = (bytes: Buffer) => setTimeout(() => this.push(bytes), 1);
    if (!this.startedUp) {
      this.startedUp = true;
      answer(Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY]));
    } else if (chunk[0] === 0x51) answer(Buffer.concat([SELECT_0, READY_FOR_QUERY])); // 'Q', a simple query
    done();
  }
  _destroy(error: Error | null, done: (error?: Error | null) => void) {
    this.readyState = "closed";
    done(error);
  }
}

/** Resolves once the microtask queue is empty: the driver has queued its write, its setImmediate has not run. */
const afterMicrotasks = () => new Promise<void>((resolve) => process.nextTick(resolve));
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("postgres.js 3.4.9 as patched", () => {
  it("a connection that closes with a write still buffered sends its startup message when it reconnects", async () => {
    const sockets: FakeServerSocket[] = [];
    // `socket` (a function returning the connection's stream) is a postgres.js option its types do not declare.
    const options = {
      max: 1,
      fetch_types: false,
      backoff: () => 0,
      connect_timeout: 5,
      onnotice: () => {},
      socket: () => {
        const socket = new FakeServerSocket();
        sockets.push(socket);
        return socket;
      },
    };
    const sql = postgres(options as postgres.Options<Record<string, never>>);
    try {
      // The first connection opens (startup answered), then a query's bytes are buffered
      // behind a setImmediate and the socket dies before that flush: an ECONNRESET mid-write.
      await sql.unsafe("select 1").simple();
      expect(sockets).toHaveLength(1);
      const lost = sql
        .unsafe("select 2")
        .simple()
        .catch((error: unknown) => error);
      await afterMicrotasks();
      sockets[0].destroy(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
      expect(await lost).toMatchObject({ code: "ECONNRESET" });

      // The next query reconnects. Unpatched, the stale write timer was never reset, so the new
      // connection's startup message waited in the buffer until connect_timeout (30 s by default).
      const next = sql.unsafe("select 3").simple();
      expect(await Promise.race([next.then(() => "answered"), settle(1_000).then(() => "still waiting")])).toBe("answered");
      expect(sockets).toHaveLength(2);
      const sent = Buffer.concat(sockets[1].received);
      // The startup message (protocol 3.0) and nothing of the dead connection's buffered query before it.
      expect(sent.readInt32BE(4)).toBe(196_608);
      expect(sent.includes(Buffer.from("select 2"))).toBe(false);
      expect(sent.includes(Buffer.from("select 3"))).toBe(true);
    } finally {
      await sql.end({ timeout: 0 }).catch(() => {});
    }
  });
});
