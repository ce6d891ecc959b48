import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { users } from "../db/schema";
import { apiResource } from "../auth/oauth/config";
import { revokeGrant } from "../auth/oauth/grants";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { createKeyPair, revokeKeyPair } from "../keys/key-pairs";
import { admitAccessToken, admitKeyPair } from "./admission";

/**
 * Request admission with cached credentials (server/http/admission.ts).
 * "Two instances" are two database handles, each with its own pool and its
 * own cache; on Postgres (DATABASE_URL) they share one database, as two app
 * instances do. On PGlite (one process, one handle) both roles use the same
 * handle.
 */
let first: DbHandle;
let second: DbHandle;
beforeAll(async () => {
  first = await openTestDb();
  second = process.env.DATABASE_URL ? await openTestDb() : first;
});
afterAll(async () => {
  if (second !== first) await second.close();
  await first.close();
});

const limit = (bucket: string, n = 1_000) => ({ bucket, policy: { limit: n, windowSeconds: 60 } });

async function tokenFor(lifetimeSeconds = 3600) {
  const { owner, application } = await makeOwnerAndApp(first.db);
  const { token, grantId } = await issueAccessToken(first.db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes: ["openid", "sessions:read"],
    audience: apiResource(),
    lifetimeSeconds,
  });
  return { owner, token, grantId, bucket: `test:token:${grantId}` };
}

describe("request admission", () => {
  it("a revoked grant's token is refused on the next request on every instance, though both had it cached", async () => {
    const { token, grantId, bucket } = await tokenFor();
    for (const handle of [first, second, first, second]) {
      const admitted = await admitAccessToken(handle.db, token, () => limit(bucket));
      expect(admitted.verified.ok).toBe(true);
      expect(admitted.decision?.allowed).toBe(true);
    }
    await revokeGrant(first.db, grantId);
    for (const handle of [second, first])
      expect((await admitAccessToken(handle.db, token, () => limit(bucket))).verified).toEqual({ ok: false });
  });

  it("a cached token still expires on time", async () => {
    const { token, bucket } = await tokenFor(120);
    expect((await admitAccessToken(second.db, token, () => limit(bucket))).verified.ok).toBe(true);
    const later = new Date(Date.now() + 121_000);
    expect((await admitAccessToken(second.db, token, () => limit(bucket), later)).verified).toEqual({ ok: false });
  });

  it("a revoked key pair, or a changed account, is seen on the next request on every instance", async () => {
    const { owner } = await tokenFor();
    const { keyPair, secretKey } = await createKeyPair(first.db, owner.id, { name: "admission" });
    const credential = { publicKey: keyPair.publicKey, secretKey };
    const buckets = () => [limit(`test:key:${keyPair.id}`), limit(`test:key-extra:${keyPair.id}`, 2)];
    for (const handle of [first, second]) {
      const admitted = await admitKeyPair(handle.db, credential, true, buckets);
      expect(admitted.verified.ok).toBe(true);
      expect(admitted.decisions.map((d) => d.allowed)).toEqual([true, true]);
    }
    // The extra bucket (limit 2) is exhausted: both decisions come back, the stricter one refusing.
    expect((await admitKeyPair(second.db, credential, true, buckets)).decisions.map((d) => d.allowed)).toEqual([true, false]);

    await first.db.update(users).set({ name: "Renamed owner" }).where(eq(users.id, owner.id));
    const renamed = await admitKeyPair(second.db, credential, true, buckets);
    expect(renamed.verified.ok && renamed.verified.user.name).toBe("Renamed owner");

    // A bare public key is not a secret, even with the full credential cached.
    expect((await admitKeyPair(second.db, { publicKey: keyPair.publicKey, secretKey: null }, true, buckets)).verified).toEqual({
      ok: false,
      code: "secret_required",
    });
    await revokeKeyPair(first.db, owner.id, keyPair.id);
    expect((await admitKeyPair(second.db, credential, true, buckets)).verified).toEqual({ ok: false, code: "invalid_key" });
  });

  it("rate limits hold exactly across instances: 3N concurrent requests spread over both, exactly N allowed", async () => {
    const { token, bucket } = await tokenFor();
    const N = 40;
    const decisions = await Promise.all(
      Array.from({ length: 3 * N }, (_, i) =>
        admitAccessToken((i % 2 ? second : first).db, token, () => limit(bucket, N)).then((a) => a.decision!),
      ),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(N);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(2 * N);
    expect(Math.min(...decisions.map((d) => d.remaining))).toBe(0);
  });
});
