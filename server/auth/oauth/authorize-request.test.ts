import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { openTestDb } from "../../../test/support/test-db";
import { handleOAuthRequest } from "./handle-request";
import { makeOwnerAndApp } from "../../../test/support/oauth-fixtures";

/**
 * The authorization endpoint's own refusals, through the same handler the
 * route uses (issue 21: a first try without `nonce` must say what to send).
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function authorize(params: Record<string, string>) {
  const url = new URL("http://localhost:3000/api/oauth/authorize");
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await handleOAuthRequest(new Request(url), ["authorize"]);
  return new URL(response.headers.get("location") ?? "about:blank");
}

describe("authorization requests with openid", () => {
  it("without a nonce are refused with an error_description that says what to send", async () => {
    const { application } = await makeOwnerAndApp(handle.db);
    const base = {
      client_id: application.clientId,
      redirect_uri: "https://app.example/callback",
      response_type: "code",
      scope: "openid profile sessions:read",
      state: "s1",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    };
    const refused = await authorize(base);
    expect(refused.origin + refused.pathname).toBe("https://app.example/callback");
    expect(refused.searchParams.get("error")).toBe("invalid_request");
    expect(refused.searchParams.get("state")).toBe("s1");
    expect(refused.searchParams.get("error_description")).toMatch(/nonce is required when the openid scope is requested: send nonce=/);

    // With a nonce the same request goes on to sign-in (no error back to the client).
    const accepted = await authorize({ ...base, nonce: "n-0S6_WzA2Mj" });
    expect(accepted.searchParams.get("error")).toBeNull();
  });
});
