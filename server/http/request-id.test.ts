import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as catchAll from "@/app/api/v1/[[...path]]/route";
import * as results from "@/app/api/v1/results/route";
import * as sessions from "@/app/api/v1/sessions/route";
import * as leases from "@/app/api/v1/svcsim/leases/route";
import * as tracks from "@/app/api/v1/tracks/route";
import { proxy } from "@/proxy";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { newRequestId, REQUEST_ID_PATTERN } from "./request-id";

/**
 * Every place that answers under /api/v1 gives its request id one form,
 * `req_` + 22 base62 characters, in the header and the error body alike
 * (issue 21: no UUID crosses either API). Route handlers are called with a
 * `Request`, against the migrated test database.
 */
const BASE = "http://localhost/api/v1";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const noParams = { params: Promise.resolve({}) };
let handle: DbHandle;

beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function expectOneForm(response: Response, status: number) {
  expect(response.status).toBe(status);
  const header = response.headers.get("x-request-id");
  const body = await response.json();
  expect(header).toMatch(REQUEST_ID_PATTERN);
  expect(body.request_id).toBe(header);
  expect(JSON.stringify(body)).not.toMatch(UUID);
}

describe("request ids", () => {
  it("are req_ and 22 base62 characters, and differ", () => {
    const ids = Array.from({ length: 1000 }, newRequestId);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every base62 character turns up, so the alphabet is the whole of it.
    expect(new Set(ids.join("").replace(/req_/g, "")).size).toBe(62);
  });

  it("results API shape: GET /tracks without a credential (401 in both shapes), an unknown path (404), an unsupported method (405)", async () => {
    await expectOneForm(await tracks.GET(new Request(`${BASE}/tracks`), noParams), 401);
    await expectOneForm(await catchAll.GET(new Request(`${BASE}/no-such-operation`), noParams), 404);
    await expectOneForm(await results.PUT(new Request(`${BASE}/results`, { method: "PUT" }), noParams), 405);
  });

  it("Data API shape: an unknown path and an unsupported method with an access token", async () => {
    const token = { authorization: "Bearer not-a-real-token" };
    const unknown = await catchAll.GET(new Request(`${BASE}/sessions/1/no-such-part`, { headers: token }), noParams);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    await expectOneForm(unknown, 404);
    await expectOneForm(await sessions.DELETE(new Request(`${BASE}/sessions`, { method: "DELETE", headers: token }), noParams), 405);
  });

  it("the kernel of both APIs: a refused credential (401) in each", async () => {
    await expectOneForm(
      await sessions.GET(new Request(`${BASE}/sessions`, { headers: { authorization: "Bearer not-a-real-token" } }), noParams),
      401,
    );
    await expectOneForm(
      await results.GET(new Request(`${BASE}/results`, { headers: { authorization: "Bearer svcpk_nothing.nothing" } }), noParams),
      401,
    );
  });

  it("the token routes: POST /svcsim/leases with an unknown lease (401)", async () => {
    await expectOneForm(
      await leases.POST(
        new Request(`${BASE}/svcsim/leases`, {
          method: "POST",
          body: JSON.stringify({ lease: "A".repeat(43) }),
          headers: { "content-type": "application/json" },
        }),
        noParams,
      ),
      401,
    );
  });

  it("proxy.ts: an undecodable path is a JSON 400 in either shape", async () => {
    await expectOneForm(await proxy(new NextRequest(`${BASE}/sessions/%ED%A0%80`)), 400);
    await expectOneForm(
      await proxy(new NextRequest(`${BASE}/sessions/%ED%A0%80`, { headers: { authorization: "Bearer some-token" } })),
      400,
    );
  });
});
