import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSiteSession, siteSessionCookie, siteSessionCookieName } from "../auth/oauth/site-session";
import { makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { DbHandle } from "../db/client";
import { getDb } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { getSessionUser } from "../users/users";
import { createSandbox } from "./sandbox";
import { returnFromSandbox, signInAsSandbox } from "./sign-in-as";

/**
 * "Sign in as sandbox person" and "Back to my account" (docs/sandbox.md):
 * only the owner gets in, and only the owner's own kept session comes back.
 * The site session is read with the app's own database handle, as pages do.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const cookieHeader = (cookies: { name: string; value: string }[]) => cookies.map((c) => `${c.name}=${c.value}`).join("; ");

describe.runIf(process.env.DATABASE_URL)("sign in as the sandbox person", () => {
  it("gives the owner the person's session and keeps the owner's for the way back; nobody else gets in or back", async () => {
    const db = getDb();
    const { owner, application } = await makeOwnerAndApp(handle.db);
    const sandbox = await createSandbox(handle.db, owner, application.id, { weeks: 1, sessionsPerWeek: 1 });
    const ownCookie = await siteSessionCookie(owner, Math.floor(Date.now() / 1000));
    const name = siteSessionCookieName(false);

    const stranger = await makeOwnerAndApp(handle.db);
    await expect(signInAsSandbox(db, stranger.owner, application.id, null)).rejects.toMatchObject({ code: "not_found" });

    const cookies = await signInAsSandbox(db, owner, application.id, cookieHeader([ownCookie]));
    const session = cookies.find((c) => c.name === name)!;
    expect((await readSiteSession(db, cookieHeader([session])))?.user.id).toBe(sandbox.userId);
    const kept = cookies.find((c) => c.name === "sandbox-return")!;
    expect(kept.value).toBe(ownCookie.value);

    // Back: the kept session is the owner's, so it comes back.
    const person = (await getSessionUser(db, sandbox.userId))!;
    const back = await returnFromSandbox(db, person, cookieHeader(cookies));
    expect((await readSiteSession(db, cookieHeader([back.cookies.find((c) => c.name === name)!])))?.user.id).toBe(owner.id);
    expect(back.location).toBe(`/developer/applications/${application.id}`);

    // A kept cookie that is someone else's valid session never becomes the session: a plain sign-out.
    const strangersCookie = await siteSessionCookie(stranger.owner, Math.floor(Date.now() / 1000));
    const forged = await returnFromSandbox(db, person, cookieHeader([session, { name: "sandbox-return", value: strangersCookie.value }]));
    expect(forged.location).toBe("/signin");
    expect(forged.cookies.find((c) => c.name === name)?.value).toBe("");

    // Only a sandbox person has a way back; the owner cannot sign in as a sandbox from inside one.
    await expect(returnFromSandbox(db, owner, cookieHeader([ownCookie]))).rejects.toMatchObject({ code: "forbidden" });
    await expect(signInAsSandbox(db, person, application.id, null)).rejects.toMatchObject({ code: "forbidden" });
  }, 60_000);
});
