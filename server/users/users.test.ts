import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { THROTTLE_POLICY } from "../auth/sign-in-throttle";
import { authenticate, changePassword, createUser, getSessionUser, signOutEverywhere } from "./users";
import { AppError } from "../errors";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const email = () => `user-${randomUUID()}@test.example`;
const password = "correct horse battery";

describe("accounts", () => {
  it("creates a user with a hashed password and the coach role by default", async () => {
    const user = await createUser(handle.db, { name: "Ana", email: email(), password });
    expect(user.role).toBe("coach");
    expect(user.canCreateSessions).toBe(true);
    expect(user.canDeleteSessions).toBe(true);
    expect(user.isOperator).toBe(false);
    expect(JSON.stringify(user)).not.toContain(password);
  });

  it("normalises the email and refuses a duplicate with a field error", async () => {
    const address = email();
    await createUser(handle.db, { name: "Ana", email: `  ${address.toUpperCase()} `, password });
    const error = await createUser(handle.db, { name: "Ana 2", email: address, password }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("conflict");
    expect(error.fieldErrors.email).toEqual(["An account with this email already exists"]);
  });

  it("rejects invalid sign-up input without writing anything", async () => {
    const address = email();
    await expect(createUser(handle.db, { name: "", email: address, password: "short" })).rejects.toThrow();
    expect((await authenticate(handle.db, address, "short")).ok).toBe(false);
  });

  it("gives unknown email and wrong password the same answer", async () => {
    const address = email();
    await createUser(handle.db, { name: "Ana", email: address, password });
    expect(await authenticate(handle.db, address, "wrong password!")).toEqual({ ok: false, code: "invalid_credentials" });
    expect(await authenticate(handle.db, email(), password)).toEqual({ ok: false, code: "invalid_credentials" });
    const ok = await authenticate(handle.db, address.toUpperCase(), password);
    expect(ok.ok).toBe(true);
  });

  it("throttles repeated failures per account, even for the right password, then lets it in after the lock", async () => {
    const address = email();
    await createUser(handle.db, { name: "Ana", email: address, password });
    const t0 = new Date("2026-01-01T10:00:00Z");
    for (let i = 0; i < THROTTLE_POLICY.maxFailures; i++) {
      expect((await authenticate(handle.db, address, "nope nope nope", { now: t0 })).ok).toBe(false);
    }
    const locked = await authenticate(handle.db, address, password, { now: new Date(t0.getTime() + 1000) });
    expect(locked).toMatchObject({ ok: false, code: "throttled" });
    if (!locked.ok && locked.code === "throttled") expect(locked.retryAfterSeconds).toBeGreaterThan(800);
    const later = new Date(t0.getTime() + (THROTTLE_POLICY.lockSeconds + 5) * 1000);
    expect((await authenticate(handle.db, address, password, { now: later })).ok).toBe(true);
  });

  it("sign-out everywhere and a password change bump the session version", async () => {
    const user = await createUser(handle.db, { name: "Ana", email: email(), password });
    await signOutEverywhere(handle.db, user.id);
    expect((await getSessionUser(handle.db, user.id))!.sessionVersion).toBe(user.sessionVersion + 1);
    await expect(
      changePassword(handle.db, user.id, { currentPassword: "wrong", newPassword: "another long password" }),
    ).rejects.toMatchObject({
      code: "invalid",
    });
    await changePassword(handle.db, user.id, { currentPassword: password, newPassword: "another long password" });
    expect((await getSessionUser(handle.db, user.id))!.sessionVersion).toBe(user.sessionVersion + 2);
    expect((await authenticate(handle.db, user.email, password)).ok).toBe(false);
    expect((await authenticate(handle.db, user.email, "another long password")).ok).toBe(true);
  });
});
