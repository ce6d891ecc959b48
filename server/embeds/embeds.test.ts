import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as artifactRoute from "@/app/api/v1/svcsim/artifacts/[token]/route";
import * as leaseRoute from "@/app/api/v1/svcsim/leases/route";
import { createAthlete } from "../athletes/athletes";
import { putBlob } from "../blobs/blob-store";
import { revokeApplicationAccess, revokeGrant } from "../auth/oauth/grants";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { buildReplayArtifact, replayBlobKey } from "../replay/build-replay-artifact";
import { decodeReplayArtifact } from "../replay/read-replay-artifact";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import type { VesselType } from "../svc/types";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { consumeArtifactToken, renewLease, revokeEmbed } from "./artifacts-and-leases";
import { createEmbed, type CreateEmbedInput } from "./create-embed";
import { launchEmbed, launchTokenOrigin } from "./launch-embed";
import type { LaunchRequest } from "./launch-request";

/**
 * Replay embeds against a real database (Postgres when DATABASE_URL is set):
 * creation rules, single use of launch and artifact tokens under
 * concurrency, leases, and revocation through the grant or the embed.
 */
const keyring = loadKeyring({});
const ORIGIN = "https://club.example";
const APP_ORIGIN = "https://results.example";
/** A launch opened as the club site's iframe would open it (launch-request.ts). */
const FROM_THE_CLUB: LaunchRequest = { dest: "iframe", mode: "navigate", site: "cross-site", referer: `${ORIGIN}/regatta` };
const framed = (token: string, now?: Date, request = FROM_THE_CLUB) => ({ token, request, appOrigin: APP_ORIGIN, now });
let handle: DbHandle;

beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const VESSEL_IDS: Record<string, number> = { K1: 1, K2: 2, K4: 3, C1: 4, C2: 5, C4: 6 };

async function uploadSession(user: SessionUser, trackId: number, athletePool: number[], vessel: VesselType, seed: number) {
  const athleteIds = athletePool.slice(0, Number(vessel[1]));
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel, distanceM: 200, seed }).content, keyring));
  const metadata = JSON.stringify({
    distance: 200,
    vessel_id: VESSEL_IDS[vessel],
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: athleteIds,
  });
  return (
    await uploadResult(handle.db, { user, createdVia: "api", keyPairId: null, file: { filename: "s.svc", bytes }, metadata }, { keyring })
  ).id;
}

async function world() {
  const { owner, application } = await makeOwnerAndApp(handle.db, {
    embedOrigins: [ORIGIN],
    scopes: ["openid", "sessions:read", "svcsim:embed"],
  });
  const user = { ...owner } as unknown as SessionUser;
  const trackId = (await createTrack(handle.db, owner.id, { name: "Basin" })).id;
  const athletes: number[] = [];
  for (const name of ["Ana", "Bea", "Cai", "Dan"])
    athletes.push((await createAthlete(handle.db, owner.id, { name, subscriptionActiveUntil: "2099-01-01" })).id);
  const withArtifact = await uploadSession(user, trackId, athletes, "K1", 3);
  await buildReplayArtifact(handle.db, withArtifact);
  const { grantId } = await issueAccessToken(handle.db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes: ["openid", "sessions:read", "svcsim:embed"],
    audience: "test",
  });
  const input = (overrides: Partial<CreateEmbedInput> = {}): CreateEmbedInput => ({
    audience: { subjectId: owner.id, surface: "data", applicationId: application.id },
    grantId,
    origin: ORIGIN,
    sessionIds: [withArtifact],
    now: new Date(),
    ...overrides,
  });
  return { owner, user, application, grantId, trackId, athletes, withArtifact, input };
}

async function createdLaunch(input: CreateEmbedInput) {
  const created = await createEmbed(handle.db, input);
  if (!created.ok) throw new Error(`embed not created: ${JSON.stringify(created)}`);
  return created;
}

describe("creating an embed", () => {
  it("refuses an origin not approved for the application, a session outside the boundary, and a missing or invalid artifact", async () => {
    const w = await world();
    expect(await createEmbed(handle.db, w.input({ origin: "https://other.example" }))).toEqual({ ok: false, code: "origin_not_approved" });

    const stranger = await createUser(handle.db, {
      name: "Stranger",
      email: `s-${randomUUID()}@test.example`,
      password: "correct horse battery",
    });
    const strangerTrack = (await createTrack(handle.db, stranger.id, { name: "Elsewhere" })).id;
    const strangerAthlete = (await createAthlete(handle.db, stranger.id, { name: "Eve", subscriptionActiveUntil: "2099-01-01" })).id;
    const foreign = await uploadSession(stranger as unknown as SessionUser, strangerTrack, [strangerAthlete], "K1", 5);
    await buildReplayArtifact(handle.db, foreign);
    expect(await createEmbed(handle.db, w.input({ sessionIds: [w.withArtifact, foreign] }))).toEqual({
      ok: false,
      code: "session_not_found",
    });
    expect(await createEmbed(handle.db, w.input({ sessionIds: [2_000_000_000] }))).toEqual({ ok: false, code: "session_not_found" });

    const noArtifact = await uploadSession(w.user, w.trackId, w.athletes, "C1", 6);
    expect(await createEmbed(handle.db, w.input({ sessionIds: [w.withArtifact, noArtifact] }))).toEqual({
      ok: false,
      code: "artifact_unavailable",
      sessionId: noArtifact,
      reason: "missing",
    });

    const tampered = await uploadSession(w.user, w.trackId, w.athletes, "K1", 7);
    await putBlob(handle.db, { key: replayBlobKey(tampered), bytes: Buffer.from("not gzip"), contentType: "application/json" });
    expect(await createEmbed(handle.db, w.input({ sessionIds: [tampered] }))).toEqual({
      ok: false,
      code: "artifact_unavailable",
      sessionId: tampered,
      reason: "invalid",
    });
  });
});

describe("launch, artifacts and lease", () => {
  it("of 20 concurrent openings of one launch URL exactly one succeeds", async () => {
    const w = await world();
    const { launchToken } = await createdLaunch(w.input());
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => launchEmbed(handle.db, framed(launchToken))));
    expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
    expect(await launchTokenOrigin(handle.db, launchToken)).toBe(ORIGIN);
    expect(await launchTokenOrigin(handle.db, "x".repeat(43))).toBeNull();
  });

  it("a request that is not the approved origin's frame navigation is refused and leaves the launch usable", async () => {
    const w = await world();
    const { launchToken } = await createdLaunch(w.input());
    const refused: LaunchRequest[] = [
      { dest: null, mode: null, site: null, referer: null }, // curl, a link preview, a scanner
      { dest: "document", mode: "navigate", site: "none", referer: null }, // the URL pasted into a tab
      { ...FROM_THE_CLUB, referer: "https://stranger.example/" }, // a stranger's iframe that shows its referrer
      { ...FROM_THE_CLUB, site: "same-origin" }, // framed by a page of ours, not the club
    ];
    for (const request of refused)
      expect(await launchEmbed(handle.db, framed(launchToken, undefined, request)), JSON.stringify(request)).toBeNull();
    const launched = await launchEmbed(handle.db, framed(launchToken));
    expect(launched?.origin).toBe(ORIGIN);
    expect(await launchEmbed(handle.db, framed(launchToken))).toBeNull();
  });

  it("serves each artifact once, exactly schema 1, and renews the lease for ten minutes", async () => {
    const w = await world();
    const second = await uploadSession(w.user, w.trackId, w.athletes, "K2", 9);
    await buildReplayArtifact(handle.db, second);
    const { launchToken } = await createdLaunch(w.input({ sessionIds: [second, w.withArtifact] }));
    const launched = (await launchEmbed(handle.db, framed(launchToken)))!;
    expect(launched.origin).toBe(ORIGIN);
    expect(launched.lanes.map((l) => [l.lane, l.modelClass])).toEqual([
      [1, "K2"],
      [2, "K1"],
    ]);
    const [a, b] = await Promise.all(launched.lanes.map((l) => consumeArtifactToken(handle.db, l.artifactToken)));
    expect(await consumeArtifactToken(handle.db, launched.lanes[0].artifactToken)).toBeNull();
    for (const artifact of [a!, b!]) {
      const bytes = Buffer.from(await new Response(artifact.stream).arrayBuffer());
      expect(bytes.byteLength).toBe(artifact.byteSize);
      const raw = JSON.parse(gunzipSync(bytes).toString());
      expect(Object.keys(raw).sort()).toEqual(["frame_count", "frames", "model_class", "quantization", "schema"]);
      expect(Object.keys(raw.quantization).sort()).toEqual(["orientation_deg", "position_m"]);
      expect(raw.frames.every((f: unknown[]) => f.length === 7 && f[1] === 0 && f[2] === 0 && f.every((v) => typeof v === "number"))).toBe(
        true,
      );
      expect(decodeReplayArtifact(bytes)).not.toBeNull();
    }
    const later = new Date(Date.now() + 60_000);
    const renewed = await renewLease(handle.db, launched.lease.credential, later);
    expect(renewed?.expiresAt.getTime()).toBe(later.getTime() + 10 * 60_000);
    expect(await renewLease(handle.db, "y".repeat(43))).toBeNull();
    expect(await renewLease(handle.db, { lease: 1 })).toBeNull();
    // A lease left to expire stays expired.
    expect(await renewLease(handle.db, launched.lease.credential, new Date(Date.now() + 12 * 60_000))).toBeNull();
  });

  it("a launch is refused after two minutes, and an artifact URL after its own lifetime", async () => {
    const w = await world();
    const { launchToken } = await createdLaunch(w.input());
    expect(await launchEmbed(handle.db, framed(launchToken, new Date(Date.now() + 2 * 60_000 + 1000)))).toBeNull();
    const again = await createdLaunch(w.input());
    const launched = (await launchEmbed(handle.db, framed(again.launchToken)))!;
    expect(await consumeArtifactToken(handle.db, launched.lanes[0].artifactToken, new Date(Date.now() + 3 * 60_000))).toBeNull();
  });
});

describe("revocation", () => {
  it("revoking the grant ends the lease and the unused launch and artifact tokens", async () => {
    const w = await world();
    const unused = await createdLaunch(w.input());
    const used = await createdLaunch(w.input());
    const launched = (await launchEmbed(handle.db, framed(used.launchToken)))!;
    expect(await renewLease(handle.db, launched.lease.credential)).not.toBeNull();
    await revokeGrant(handle.db, w.grantId);
    expect(await renewLease(handle.db, launched.lease.credential)).toBeNull();
    expect(await consumeArtifactToken(handle.db, launched.lanes[0].artifactToken)).toBeNull();
    expect(await launchEmbed(handle.db, framed(unused.launchToken))).toBeNull();
  });

  it("so does withdrawing the application on the connected-apps page, and revoking the embed itself", async () => {
    const w = await world();
    const first = (await launchEmbed(handle.db, framed((await createdLaunch(w.input())).launchToken)))!;
    const second = await createdLaunch(w.input());
    const secondLaunched = (await launchEmbed(handle.db, framed(second.launchToken)))!;
    const unusedOfSecond = await createdLaunch(w.input());

    expect(
      await revokeEmbed(handle.db, {
        embedId: second.embedId,
        subjectId: w.owner.id,
        applicationId: w.application.id + 1,
        now: new Date(),
      }),
    ).toBe(false);
    expect(
      await revokeEmbed(handle.db, { embedId: second.embedId, subjectId: w.owner.id, applicationId: w.application.id, now: new Date() }),
    ).toBe(true);
    expect(await renewLease(handle.db, secondLaunched.lease.credential)).toBeNull();
    expect(await consumeArtifactToken(handle.db, secondLaunched.lanes[0].artifactToken)).toBeNull();
    // Other embeds of the same grant live on.
    expect(await renewLease(handle.db, first.lease.credential)).not.toBeNull();

    await revokeApplicationAccess(handle.db, w.owner.id, w.application.id);
    expect(await renewLease(handle.db, first.lease.credential)).toBeNull();
    expect(await launchEmbed(handle.db, framed(unusedOfSecond.launchToken))).toBeNull();
  });
});

describe('the token routes, called with a Request (the Data API\'s kernel, docs/architecture.md "Every route through its wrapper")', () => {
  const API = "http://localhost/api/v1/svcsim";
  const noParams = { params: Promise.resolve({}) };
  const renew = (body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
    leaseRoute.POST(new Request(`${API}/leases`, { method: "POST", body, headers }), noParams);
  const artifact = (token: string, query = "") =>
    artifactRoute.GET(new Request(`${API}/artifacts/${token}${query}`), { params: Promise.resolve({ token }) });

  it("GET /svcsim/artifacts/{token}: the gzip bytes once, then a JSON 404; a query parameter is a 400", async () => {
    const w = await world();
    const launched = (await launchEmbed(handle.db, framed((await createdLaunch(w.input())).launchToken)))!;
    const token = launched.lanes[0].artifactToken;
    const withQuery = await artifact(token, "?x=1");
    expect(withQuery.status).toBe(400);
    expect(await withQuery.json()).toMatchObject({ error: "invalid_request", request_id: withQuery.headers.get("x-request-id") });

    const served = await artifact(token);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/gzip");
    expect(served.headers.get("cache-control")).toBe("no-store");
    expect(served.headers.get("x-request-id")).toMatch(/^req_/);
    expect(decodeReplayArtifact(Buffer.from(await served.arrayBuffer()))).not.toBeNull();

    const again = await artifact(token);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: "not_found",
      error_description: "Unknown, used or expired artifact URL",
      request_id: again.headers.get("x-request-id"),
    });
  });

  it("POST /svcsim/leases: 200 for a live lease; every missing, malformed or unknown one is a 401 with a Lease challenge", async () => {
    const w = await world();
    const launched = (await launchEmbed(handle.db, framed((await createdLaunch(w.input())).launchToken)))!;
    const renewed = await renew(JSON.stringify({ lease: launched.lease.credential }));
    expect(renewed.status).toBe(200);
    const { data } = await renewed.json();
    expect(Math.abs(Date.parse(data.expires_at) - Date.now() - 600_000)).toBeLessThan(30_000);
    expect(renewed.headers.get("cache-control")).toBe("no-store");

    const refusals: [BodyInit, Record<string, string>?][] = [
      [JSON.stringify({ lease: "A".repeat(43) })],
      [JSON.stringify({ lease: 5 })],
      [JSON.stringify({})],
      [JSON.stringify({ lease: launched.lease.credential, extra: 1 })],
      ["garbage"],
      ["garbage", { "content-type": "application/octet-stream" }],
      [JSON.stringify({ lease: launched.lease.credential }), {}],
      [JSON.stringify({ lease: "A".repeat(20_000) })],
    ];
    for (const [body, headers] of refusals) {
      const refused = await renew(body, headers);
      expect(refused.status, String(body).slice(0, 60)).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe(`Lease realm="svcsim"`);
      expect(await refused.json()).toMatchObject({ error: "invalid_token", request_id: refused.headers.get("x-request-id") });
    }
  });
});
