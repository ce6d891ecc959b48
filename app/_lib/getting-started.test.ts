import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gettingStartedCommands } from "./getting-started";

/**
 * docs/getting-started.md shows the portal guide's commands for a fresh
 * quickstart (http://localhost:3000, the demo coach's track 1 and athlete 1):
 * every command the portal prints must appear in it verbatim.
 */
describe("docs/getting-started.md", () => {
  it("holds every command the portal's guide prints for a quickstart", () => {
    const doc = readFileSync("docs/getting-started.md", "utf8");
    const commands = gettingStartedCommands({ appUrl: "http://localhost:3000", ids: { trackId: 1, athleteId: 1 } });
    for (const [name, command] of Object.entries(commands)) expect(doc.includes(command!), `${name}:\n${command}`).toBe(true);
  });

  it("sends a nonce with openid, and no resource parameter", () => {
    const { oauthScript } = gettingStartedCommands({ appUrl: "https://results.example", ids: { trackId: 5, athleteId: 9 } });
    expect(oauthScript).toContain("nonce,");
    expect(oauthScript).toContain("expectedNonce: nonce");
    expect(oauthScript).not.toContain("resource");
    // Plain-HTTP requests are allowed only for an http:// server.
    expect(oauthScript).toContain("execute: []");
  });
});

/**
 * Issue 30 §5: a new account has no track or athlete, and an upload naming
 * example ids answers 403. The guide prints the account's own ids, or no
 * upload at all (the page prints the step that creates them instead).
 */
describe("the upload sample's ids", () => {
  it("are the account's own track and athlete", () => {
    const { upload } = gettingStartedCommands({ appUrl: "https://results.example", ids: { trackId: 41, athleteId: 77 } });
    expect(upload).toContain('"track_id":41');
    expect(upload).toContain('"athletes":[77]');
  });

  it("are never example ids: an account with no track or athlete gets no upload command", () => {
    expect(gettingStartedCommands({ appUrl: "https://results.example", ids: null }).upload).toBeNull();
  });
});
