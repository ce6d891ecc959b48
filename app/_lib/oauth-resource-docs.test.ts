import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * One answer about `resource` everywhere (issue 30 §5). The authorization
 * server's rule (server/auth/oauth/provider.ts, `useGrantedResource`): a
 * request holding a Data API scope gets a Data API token without `resource`;
 * `resource=<site>/api/v1` is accepted and gives the same token (the flows in
 * e2e/getting-started.spec.ts and e2e/oauth-openid-client.spec.ts send none).
 * Every page and doc that tells an integrator how to get a token says "no
 * resource parameter is needed", and none tells them to send one.
 */
const read = (path: string) =>
  readFileSync(path, "utf8")
    .replace(/<\/?code>/g, "`")
    .replace(/\s+/g, " ");
const SAYS_NOT_NEEDED = /no `resource` parameter is needed/i;
const TELLS_TO_SEND = /(ask for|request|include|add) `?resource=|`code_verifier` and `resource=/i;

const GUIDES = [
  "packages/sdk/README.md",
  "docs/getting-started.md",
  "app/(portal)/developer/page.tsx",
  "app/(portal)/developer/docs/data-api/page.tsx",
  "docs/data-api.md",
];

describe("the resource parameter", () => {
  it("the server config has the rule the docs state: a Data API scope without resource yields a Data API token", () => {
    const provider = readFileSync("server/auth/oauth/provider.ts", "utf8");
    expect(provider).toContain("defaultResource: async () => resource");
    expect(provider).toMatch(/useGrantedResource: async \([^)]*\) =>\s*requestsApiScope\(/);
  });

  it.each(GUIDES)("%s says no resource is needed and never tells to send one", (path) => {
    const text = read(path);
    expect(text).toMatch(SAYS_NOT_NEEDED);
    expect(text).not.toMatch(TELLS_TO_SEND);
  });
});
