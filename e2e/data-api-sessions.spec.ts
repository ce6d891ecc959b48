import { expect, test } from "./fixtures";
import { anna, bearer, call, dataApiToken, loadDataApi, walkPages } from "./data-api-helpers";
import { DATA_WORLD } from "./data-api-world";

/**
 * The Data API's one end-to-end pass through the real server: a token got
 * through the real consent flow (browser sign-in, consent, code exchange
 * with PKCE), a few reads validated against the served document, and the
 * revocation. Every other Data API case runs in process (test/api/).
 */
test("a token from the consent flow reads the subject's sessions; DELETE /authorization ends it", async ({ request, baseURL }) => {
  const api = await loadDataApi(request);
  const { token } = await dataApiToken(baseURL!, anna, { scopes: ["openid", "profile", "sessions:read"] });
  const me = await call(request, api, { template: "/me", path: "/me" }, token);
  expect(me.body.data).toEqual({ sub: expect.any(String), name: DATA_WORLD.anna.name });
  const sessions = await walkPages(request, api, "/sessions", "/sessions?limit=2", token);
  const trial = sessions.find((s: { competition: string }) => s.competition === "World trial");
  expect(trial).toBeTruthy();
  const one = await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${trial.id}` }, token);
  expect(one.body.data).toMatchObject({ id: trial.id, subject_seat: 1 });
  expect((await call(request, api, { method: "delete", template: "/authorization", path: "/authorization" }, token)).status).toBe(204);
  expect((await request.get("/api/v1/me", { headers: bearer(token) })).status()).toBe(401);
});
