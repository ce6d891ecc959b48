import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { expect, test } from "./fixtures";
import { createResultsApiClient, uploadResult } from "../packages/sdk/src/index";
import { createKeyPair, signedInContext, trpcMutation } from "./api-helpers";
import { authorizeAndExchange, registerApp } from "./oauth-helpers";
import { simulatedSvc } from "./svc-files";
import { startReceiver } from "../test/support/webhook-receiver";

/**
 * `paddle-results listen` against the live server (issue 30 §1, docs/webhooks.md
 * "Local development"), no browser: an application and its owner's grant
 * through the real OAuth flow, a listen token through the portal's own tRPC
 * mutation, the command started as `npm run listen` forwarding to a receiver
 * in this test that verifies every post with the `standardwebhooks` package.
 * A real upload through the results API emits session.created; the
 * application has no webhook endpoint at all. Revoking the token on the
 * portal ends the command.
 */
test("listen forwards a real event, signed as a delivery, to a local URL; revoking the token ends it", async ({ baseURL }) => {
  const app = await registerApp(baseURL!, { name: "Listen app", scopes: ["openid", "offline_access", "sessions:read"] });
  const portal = await signedInContext(baseURL!, app.owner);
  const { id: tokenId, token } = await trpcMutation<{ id: string; token: string }>(portal, "listenTokens.create", {
    applicationId: app.id,
    name: "e2e laptop",
  });

  const receiver = await startReceiver();
  const forwardTo = receiver.url;
  const received = receiver.received;

  let output = "";
  const cli: ChildProcessWithoutNullStreams = spawn(
    "npm",
    ["run", "--silent", "listen", "--", "--api", baseURL!, "--token", token, "--forward-to", forwardTo],
    { detached: true, env: { ...process.env, NODE_NO_WARNINGS: "1" } },
  );
  cli.stdout.on("data", (c: Buffer) => (output += c.toString()));
  cli.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => cli.on("exit", (code) => resolve(code)));
  try {
    // While the command starts: the owner's consent (the grant events go to), a key pair, a course and an athlete.
    const [key] = await Promise.all([
      createKeyPair(baseURL!, app.owner, "listen upload"),
      authorizeAndExchange(baseURL!, app, { scope: "openid offline_access sessions:read" }),
    ]);
    const [trackId, athleteId] = await Promise.all([
      trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Listen basin" }).then((t) => t.id),
      trpcMutation<{ id: number }>(key.context, "athletes.create", {
        name: "Listen",
        surname: "Paddler",
        subscriptionActiveUntil: "2099-12-31",
      }).then((a) => a.id),
    ]);
    await expect.poll(() => output, { timeout: 15_000 }).toMatch(/Your webhook signing secret is whsec_/);
    const secret = /(whsec_[A-Za-z0-9+/]+=*)/.exec(output)![1];
    expect(output).toContain(`Ready! Forwarding the application's events from ${new URL(baseURL!).origin} to ${forwardTo}`);

    // A real event: the owner uploads a session through the results API.
    const resultsApi = createResultsApiClient({
      baseUrl: baseURL!,
      publicKey: key.publicKey,
      secretKey: key.secretKey,
      headers: { "X-Forwarded-Proto": "https" },
    });
    const uploaded = await uploadResult(resultsApi, {
      file: new Uint8Array(simulatedSvc({ vessel: "K1", distanceM: 500, seed: 7411 })),
      filename: "listen.svc",
      metadata: { distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] },
      idempotencyKey: randomUUID(),
    });
    await key.context.dispose();

    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const event = new Webhook(secret).verify(received[0].body, received[0].headers) as { type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({ type: "session.created", data: { session_id: uploaded.data.id, subject: expect.any(String) } });
    const webhookId = received[0].headers["webhook-id"];
    expect(webhookId).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    // One line per event: time, type, id, the local answer and its duration.
    await expect
      .poll(() => output, { timeout: 5_000 })
      .toMatch(new RegExp(`\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  session\\.created +${webhookId}  --> 204 \\[\\d+ ms\\]`));

    await trpcMutation(portal, "listenTokens.revoke", { applicationId: app.id, tokenId });
    expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 10_000))])).toBe(1);
    expect(output).toContain("The listen token was revoked on the portal");
  } finally {
    if (cli.exitCode === null && cli.pid) process.kill(-cli.pid, "SIGTERM");
    await receiver.close();
    await portal.dispose();
  }
});
