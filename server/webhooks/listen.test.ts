import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { openTestDb } from "../../test/support/test-db";
import { revokeGrant } from "../auth/oauth/grants";
import type { DbHandle } from "../db/client";
import { webhookEvents, webhookListenTokens } from "../db/schema";
import { AppError } from "../errors";
import { listenRoute } from "../http/listen-route";
import { emitWebhookEvent, type WebhookEmission } from "./emit-event";
import { checkEndpointUrl, endpointUrlHint, LOCAL_WEBHOOKS_HELP } from "./endpoints";
import { createListenToken, listListenTokens, revokeListenToken } from "./listen-tokens";

/**
 * Issue 30 §1: listen tokens and the event stream `paddle-results listen`
 * reads, through the real route handler on real Postgres; and the one answer
 * to a webhook URL on the developer's own machine. The CLI against a live
 * server: e2e/webhooks-listen.spec.ts.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const AUDIENCE = "https://results.example/api/v1";
let route: ReturnType<typeof listenRoute>;
beforeAll(() => {
  route = listenRoute({ db: handle.db, pollMs: 40, heartbeatMs: 300 });
});
const emit = (emission: WebhookEmission) => handle.db.transaction((tx) => emitWebhookEvent(tx, emission));

/** An application whose owner granted it `scopes`, and a listen token for it. */
async function app(options: { surface?: "data" | "session"; scopes?: string[] } = {}) {
  const scopes = options.scopes ?? ["openid", "sessions:read", "trainings:read"];
  const { owner, application } = await makeOwnerAndApp(handle.db, {
    surface: options.surface ?? "data",
    scopes: ["openid", "sessions:read", "trainings:read"],
  });
  const { grantId } = await issueAccessToken(handle.db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes,
    audience: AUDIENCE,
    lifetimeSeconds: 3600,
  });
  const { listenToken, token } = await createListenToken(handle.db, owner.id, application.id, { name: "Laptop" });
  return { owner, application, grantId, listenToken, token };
}

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Opens the stream as a client would and collects its frames. */
async function connect(token: string | null, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await route(
    new Request("http://localhost/api/webhooks/listen", {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      signal: abort.signal,
    }),
  );
  const frames: Frame[] = [];
  let ended = false;
  if (response.ok) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      const reader = response.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: Frame = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) frame.comment = line.slice(1).trim();
            else if (line.startsWith("id: ")) frame.id = line.slice(4);
            else if (line.startsWith("event: ")) frame.event = line.slice(7);
            else if (line.startsWith("data: ")) frame.data = line.slice(6);
          }
          frames.push(frame);
        }
      }
      ended = true;
    })();
  }
  return {
    response,
    frames,
    events: () => frames.filter((f) => f.id),
    ended: () => ended,
    close: () => abort.abort(),
    async until(check: () => boolean, what: string, timeoutMs = 8_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

const storedEvent = async (messageId: string) =>
  (await handle.db.select().from(webhookEvents).where(eq(webhookEvents.messageId, messageId)))[0];

describe("listen tokens", () => {
  it("are shown once, stored as a SHA-256 hash, listed by name and start, and refused once revoked (401 JSON)", async () => {
    const { owner, application, listenToken, token } = await app();
    expect(token).toMatch(/^prl_[0-9A-Za-z]{40}$/);
    const [row] = await handle.db.select().from(webhookListenTokens).where(eq(webhookListenTokens.publicId, listenToken.id));
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await listListenTokens(handle.db, owner.id, application.id);
    expect(listed).toEqual([
      {
        id: listenToken.id,
        name: "Laptop",
        tokenStart: `${token.slice(0, 10)}…`,
        createdAt: expect.any(Date),
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(token);

    const stream = await connect(token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    stream.close();
    expect((await listListenTokens(handle.db, owner.id, application.id))[0].lastUsedAt).toBeInstanceOf(Date);

    await revokeListenToken(handle.db, owner.id, application.id, listenToken.id);
    const refused = await connect(token);
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await refused.response.json()).toEqual({
      error: "unauthenticated",
      message: "The listen token is missing, unknown or revoked",
    });
    expect((await listListenTokens(handle.db, owner.id, application.id))[0].revokedAt).toBeInstanceOf(Date);
  });

  it("a missing, malformed or unknown token, or an OAuth-looking one, is the same 401", async () => {
    for (const authorization of [
      null,
      "prl_nothing",
      `Bearer prl_${"x".repeat(40)}`,
      "Bearer svcpk_a.svcsk_b",
      `Bearer prl_${"a".repeat(300)}`,
    ]) {
      const response = await route(
        new Request("http://localhost/api/webhooks/listen", { headers: authorization ? { authorization } : {} }),
      );
      expect(response.status, String(authorization)).toBe(401);
      expect(await response.json()).toMatchObject({ error: "unauthenticated" });
    }
  });

  it("belong to the application's owner: another person's application is a 404, and its tokens stay out of reach", async () => {
    const { application, listenToken } = await app();
    const stranger = await makeOwnerAndApp(handle.db);
    const notFound = { code: "not_found" };
    await expect(createListenToken(handle.db, stranger.owner.id, application.id, { name: "x" })).rejects.toMatchObject(notFound);
    await expect(listListenTokens(handle.db, stranger.owner.id, application.id)).rejects.toMatchObject(notFound);
    await expect(revokeListenToken(handle.db, stranger.owner.id, application.id, listenToken.id)).rejects.toMatchObject(notFound);
    // A token id of another application, revoked through one's own application: not found.
    await expect(revokeListenToken(handle.db, stranger.owner.id, stranger.application.id, listenToken.id)).rejects.toBeInstanceOf(AppError);
    await expect(createListenToken(handle.db, stranger.owner.id, stranger.application.id, { name: " " })).rejects.toThrow(/name/);
  });
});

describe("the listen stream", () => {
  it("streams the application's events with no endpoint at all, as the exact delivery body with the msg_ id; another application's token sees none of them", async () => {
    const mine = await app();
    const theirs = await app();
    const stream = await connect(mine.token);
    const other = await connect(theirs.token);
    try {
      await emit({ type: "session.created", userId: mine.owner.id, ids: { session_id: 41 } });
      await stream.until(() => stream.events().length === 1, "the event");
      const [frame] = stream.events();
      expect(frame.event).toBe("session.created");
      expect(frame.id).toMatch(/^msg_[0-9A-Za-z]{27}$/);
      const stored = await storedEvent(frame.id!);
      expect(stored.applicationId).toBe(mine.application.id);
      expect(frame.data).toBe(JSON.stringify(stored.payload));
      expect(JSON.parse(frame.data!)).toMatchObject({ type: "session.created", data: { session_id: 41, subject: expect.any(String) } });
      // The other application's stream heard nothing (its heartbeat shows it is alive).
      await other.until(() => other.frames.some((f) => f.comment === "heartbeat"), "a heartbeat");
      expect(other.events()).toEqual([]);
    } finally {
      stream.close();
      other.close();
    }
  });

  it("is scoped as endpoints are: the grant's scopes, the session surface's own sessions, active grants only", async () => {
    const noTrainings = await app({ scopes: ["openid", "sessions:read"] });
    const surface = await app({ surface: "session" });
    const revoked = await app();
    const streams = await Promise.all([noTrainings, surface, revoked].map((a) => connect(a.token)));
    try {
      // trainings:read not granted: no training event.
      await emit({ type: "training.ready", userId: noTrainings.owner.id, ids: { training_id: 5 } });
      await emit({ type: "session.created", userId: noTrainings.owner.id, ids: { session_id: 6 } });
      // The session surface hears of sessions it created only.
      await emit({ type: "session.created", userId: surface.owner.id, ids: { session_id: 7 }, createdByApplicationId: null });
      await emit({
        type: "session.created",
        userId: surface.owner.id,
        ids: { session_id: 8 },
        createdByApplicationId: surface.application.id,
      });
      // An event written while the grant was active, not yet streamed when it is revoked, is not sent (as a delivery is cancelled).
      await streams[2].until(() => streams[2].frames.length > 0, "the stream's opening");
      await handle.db.transaction(async (tx) => {
        await emitWebhookEvent(tx, { type: "session.created", userId: revoked.owner.id, ids: { session_id: 9 } });
        await revokeGrant(tx, revoked.grantId);
      });
      await streams[0].until(() => streams[0].events().length === 1, "the session event");
      await streams[1].until(() => streams[1].events().length === 1, "the own session's event");
      await streams[2].until(() => streams[2].events().some((f) => f.event === "authorization.revoked"), "authorization.revoked");
      expect(streams[0].events().map((f) => [f.event, JSON.parse(f.data!).data.session_id])).toEqual([["session.created", 6]]);
      expect(streams[1].events().map((f) => JSON.parse(f.data!).data.session_id)).toEqual([8]);
      expect(streams[2].events().map((f) => f.event)).toEqual(["authorization.revoked"]);
    } finally {
      streams.forEach((s) => s.close());
    }
  });

  it("resumes after Last-Event-ID; an unknown or hostile one starts from now", async () => {
    const mine = await app();
    const first = await emitAndRead(mine, 3);
    const resumed = await connect(mine.token, { "last-event-id": first[0] });
    try {
      await resumed.until(() => resumed.events().length === 2, "the two later events");
      expect(resumed.events().map((f) => f.id)).toEqual(first.slice(1));
    } finally {
      resumed.close();
    }
    for (const lastEventId of ["msg_unknown", "' or 1=1 --", "\u00e9".repeat(500)]) {
      const fresh = await connect(mine.token, { "last-event-id": encodeURIComponent(lastEventId) });
      expect(fresh.response.status).toBe(200);
      try {
        await fresh.until(() => fresh.frames.length > 0, "the opening comment");
        expect(fresh.frames[0].comment).toContain("Last-Event-ID unknown, from now on");
        await emit({ type: "session.deleted", userId: mine.owner.id, ids: { session_id: 99 } });
        await fresh.until(() => fresh.events().length === 1, "the new event");
        expect(fresh.events()[0].event).toBe("session.deleted");
      } finally {
        fresh.close();
      }
    }
  });

  it("never skips an event whose transaction commits after a later one (several instances write concurrently)", async () => {
    const mine = await app();
    const stream = await connect(mine.token);
    try {
      await stream.until(() => stream.frames.length > 0, "the opening");
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const writtenSignal = new Promise<void>((resolve) => (written = resolve));
      // A: writes its event (the lower id) and stays open.
      const slow = handle.db.transaction(async (tx) => {
        await emitWebhookEvent(tx, { type: "session.created", userId: mine.owner.id, ids: { session_id: 1 } });
        written();
        await held;
      });
      await writtenSignal;
      // B: a later id, committed first.
      await emit({ type: "session.created", userId: mine.owner.id, ids: { session_id: 2 } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await slow;
      await stream.until(() => stream.events().length === 2, "both events");
      expect(
        stream
          .events()
          .map((f) => JSON.parse(f.data!).data.session_id)
          .sort(),
      ).toEqual([1, 2]);
    } finally {
      stream.close();
    }
  });

  it("ends with `event: revoked` when the token is revoked, and when the client goes away", async () => {
    const mine = await app();
    const stream = await connect(mine.token);
    await stream.until(() => stream.frames.length > 0, "the opening");
    await revokeListenToken(handle.db, mine.owner.id, mine.application.id, mine.listenToken.id);
    await stream.until(() => stream.ended(), "the end of the stream");
    expect(stream.frames.at(-1)).toEqual({ event: "revoked", data: "{}" });

    const other = await app();
    const leaving = await connect(other.token);
    await leaving.until(() => leaving.frames.length > 0, "the opening");
    leaving.close();
    await leaving.until(() => leaving.ended(), "the end after the client left");
  });
});

/** Emits `count` events for the app's owner and returns their ids, read from a stream. */
async function emitAndRead(mine: Awaited<ReturnType<typeof app>>, count: number): Promise<string[]> {
  const stream = await connect(mine.token);
  try {
    await stream.until(() => stream.frames.length > 0, "the opening");
    for (let i = 0; i < count; i++) await emit({ type: "session.updated", userId: mine.owner.id, ids: { session_id: 100 + i } });
    await stream.until(() => stream.events().length === count, `${count} events`);
    return stream.events().map((f) => f.id!);
  } finally {
    stream.close();
  }
}

describe("webhook URLs on the developer's machine (issue 30 §1)", () => {
  it("both refusals a new integrator met are one message: what is allowed and how to allow loopback locally", () => {
    for (const url of [
      "http://127.0.0.1:8790/hook",
      "http://localhost:8790/hook",
      "https://localhost:8790/hook",
      "http://[::1]:8790/hook",
    ]) {
      expect(() => checkEndpointUrl(url, false), url).toThrow(LOCAL_WEBHOOKS_HELP);
    }
    expect(LOCAL_WEBHOOKS_HELP).toMatch(/public https:\/\/ URL/);
    expect(LOCAL_WEBHOOKS_HELP).toMatch(/WEBHOOK_ALLOW_LOOPBACK=1 and a loopback APP_URL \(npm run quickstart sets both\)/);
    expect(LOCAL_WEBHOOKS_HELP).toMatch(/paddle-results listen/);
    try {
      checkEndpointUrl("http://localhost:8790/hook", false);
    } catch (error) {
      expect((error as AppError).fieldErrors).toEqual({ url: [LOCAL_WEBHOOKS_HELP] });
    }
    expect(checkEndpointUrl("http://localhost:8790/hook", true)).toBe("http://localhost:8790/hook");
    expect(() => checkEndpointUrl("http://hooks.example.com/in", true)).toThrow(/plain http:\/\/ is allowed only to this machine/);
    expect(() => checkEndpointUrl("https://10.0.0.1/", true)).toThrow(/private/);
    expect(endpointUrlHint(false)).toContain("WEBHOOK_ALLOW_LOOPBACK=1");
    expect(endpointUrlHint(true)).toContain("http://localhost:PORT");
  });
});
