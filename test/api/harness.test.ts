import { describe, expect, it } from "vitest";
import { apiHarness, createOAuthApplication, createPerson, issueToken } from "./harness";
import { resolveRoute } from "./harness/routes";

/** The harness itself: Next's routing precedence, and a token made here admitted by the real admission code. */
const api = apiHarness();

describe("the in-process API harness", () => {
  it("picks the route file Next.js would: static before dynamic before the catch-all", () => {
    expect(resolveRoute("/api/v1/sessions/compare").file).toMatch(/sessions\/compare\/route\.ts$/);
    expect(resolveRoute("/api/v1/sessions/12")).toMatchObject({
      file: expect.stringMatching(/sessions\/\[session_id\]\/route\.ts$/),
      params: { session_id: "12" },
    });
    expect(resolveRoute("/api/v1/trainings/3/sets/4/strokes").params).toEqual({ training_id: "3", set_id: "4" });
    expect(resolveRoute("/api/v1/no/such/thing")).toMatchObject({
      file: expect.stringMatching(/\[\[\.\.\.path\]\]\/route\.ts$/),
      params: { path: ["no", "such", "thing"] },
    });
  });

  it("admits a token it issued and refuses none, with documented answers", async () => {
    const person = await createPerson(api.db);
    const app = await createOAuthApplication(api.db, person.id);
    const { token } = await issueToken(api.db, { userId: person.id, application: app, scopes: ["openid", "profile"] });
    const me = await api.call("GET", "/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({ sub: expect.any(String), name: person.name });
    const anonymous = await api.call("GET", "/me");
    expect(anonymous.status).toBe(401);
    const unknown = await api.call("GET", "/nowhere", { token, undocumented: true });
    expect(unknown).toMatchObject({ status: 404, body: { error: "not_found" } });
  });
});
