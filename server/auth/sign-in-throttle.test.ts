import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { authenticate, createUser } from "../users/users";
import { ADDRESS_THROTTLE_POLICY, THROTTLE_POLICY } from "./sign-in-throttle";

/**
 * The one sign-in throttle behind both doors (docs/auth.md "Failed
 * sign-ins"): per account and per client address, in the database.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const password = "correct horse battery staple";
const email = () => `throttle-${randomUUID()}@test.example`;
const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`;

describe("per client address", () => {
  it("refuses the 31st attempt of a password spray (one wrong password each for 36 different emails), then every account from that address", async () => {
    const sprayer = address();
    const t0 = new Date("2026-03-01T10:00:00Z");
    const victim = await createUser(handle.db, { name: "Victim", email: email(), password });
    const outcomes: string[] = [];
    for (let i = 1; i <= 36; i++) {
      const at = new Date(t0.getTime() + i * 1000);
      const result = await authenticate(handle.db, email(), "Summer2026!", { clientAddress: sprayer, now: at });
      outcomes.push(result.ok ? "ok" : result.code === "throttled" ? `throttled:${result.scope}` : result.code);
    }
    expect(outcomes.indexOf("throttled:address") + 1).toBe(ADDRESS_THROTTLE_POLICY.maxFailures + 1);
    expect(outcomes.slice(0, 30).every((o) => o === "invalid_credentials")).toBe(true);
    expect(outcomes.slice(30).every((o) => o === "throttled:address")).toBe(true);

    // The right password of a real account is refused from that address too, while the lock lasts…
    const during = new Date(t0.getTime() + 60_000);
    expect(await authenticate(handle.db, victim.email, password, { clientAddress: sprayer, now: during })).toMatchObject({
      ok: false,
      code: "throttled",
      scope: "address",
    });
    // …but not from another address: the account itself is not locked.
    expect((await authenticate(handle.db, victim.email, password, { clientAddress: address(), now: during })).ok).toBe(true);
    // After the lock the address may try again.
    const after = new Date(t0.getTime() + (36 + ADDRESS_THROTTLE_POLICY.lockSeconds + 5) * 1000);
    expect((await authenticate(handle.db, victim.email, password, { clientAddress: sprayer, now: after })).ok).toBe(true);
  });

  it("a successful sign-in does not reset the address counter (a sprayer cannot clear it with an account of their own)", async () => {
    const sprayer = address();
    const own = await createUser(handle.db, { name: "Sprayer", email: email(), password });
    const t0 = new Date("2026-03-02T10:00:00Z");
    let at = t0.getTime();
    for (let i = 1; i < ADDRESS_THROTTLE_POLICY.maxFailures; i++) {
      expect((await authenticate(handle.db, email(), "Summer2026!", { clientAddress: sprayer, now: new Date((at += 1000)) })).ok).toBe(
        false,
      );
      if (i % 10 === 0)
        expect((await authenticate(handle.db, own.email, password, { clientAddress: sprayer, now: new Date((at += 1000)) })).ok).toBe(true);
    }
    expect(await authenticate(handle.db, email(), "Summer2026!", { clientAddress: sprayer, now: new Date((at += 1000)) })).toEqual({
      ok: false,
      code: "invalid_credentials",
    });
    expect(await authenticate(handle.db, email(), "Summer2026!", { clientAddress: sprayer, now: new Date((at += 1000)) })).toMatchObject({
      ok: false,
      code: "throttled",
      scope: "address",
    });
  });

  it("counts only within the window: failures spread wider than it never lock the address", async () => {
    const slow = address();
    const t0 = new Date("2026-03-03T10:00:00Z").getTime();
    const spacing = Math.ceil((ADDRESS_THROTTLE_POLICY.windowSeconds * 1000) / (ADDRESS_THROTTLE_POLICY.maxFailures - 2));
    for (let i = 0; i < ADDRESS_THROTTLE_POLICY.maxFailures * 2; i++) {
      const result = await authenticate(handle.db, email(), "Summer2026!", { clientAddress: slow, now: new Date(t0 + i * spacing) });
      expect(result, `attempt ${i + 1}`).toEqual({ ok: false, code: "invalid_credentials" });
    }
  });
});

describe("per account, whichever the door", () => {
  it("locks the account after five failures from different addresses, and says so with scope account", async () => {
    const user = await createUser(handle.db, { name: "Target", email: email(), password });
    const t0 = new Date("2026-03-04T10:00:00Z");
    for (let i = 0; i < THROTTLE_POLICY.maxFailures; i++) {
      expect((await authenticate(handle.db, user.email, "wrong password!", { clientAddress: address(), now: t0 })).ok).toBe(false);
    }
    const locked = await authenticate(handle.db, user.email, password, { clientAddress: address(), now: new Date(t0.getTime() + 1000) });
    expect(locked).toMatchObject({ ok: false, code: "throttled", scope: "account" });
    // Without a known address (no trusted proxy) the account lock holds all the same.
    expect(await authenticate(handle.db, user.email, password, { now: new Date(t0.getTime() + 2000) })).toMatchObject({
      ok: false,
      code: "throttled",
      scope: "account",
    });
  });
});
