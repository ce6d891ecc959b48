import { describe, expect, it } from "vitest";
import { expectedFetchSites, launchRequestOf, mayConsumeLaunch, type LaunchRequest } from "./launch-request";

/**
 * Who may consume a replay launch (docs/replay.md "Who may open a launch"):
 * the decision over the header combinations browsers and other clients send.
 */
const APP = "https://results.example";
const CLUB = "https://club.example";
const frame = (overrides: Partial<LaunchRequest> = {}): LaunchRequest => ({
  dest: "iframe",
  mode: "navigate",
  site: "cross-site",
  referer: `${CLUB}/`,
  ...overrides,
});
const may = (request: LaunchRequest, approvedOrigin = CLUB, appOrigin = APP) => mayConsumeLaunch(request, { approvedOrigin, appOrigin });

describe("mayConsumeLaunch", () => {
  it("accepts the approved origin's iframe navigation, with its referrer (origin or full URL) or none", () => {
    expect(may(frame())).toBe(true);
    expect(may(frame({ referer: `${CLUB}/results/2026?heat=3` }))).toBe(true);
    expect(may(frame({ referer: null }))).toBe(true);
  });

  it("refuses anything that is not an iframe navigation", () => {
    const cases: [string, Partial<LaunchRequest>][] = [
      ["a plain client: no Fetch Metadata", { dest: null, mode: null, site: null, referer: null }],
      ["a plain client with a forged Referer only", { dest: null, mode: null, site: null }],
      ["opened as a top-level page (a copied URL)", { dest: "document", site: "none", referer: null }],
      ["a link clicked on the club page", { dest: "document" }],
      ["fetch() from the club page", { dest: "empty", mode: "cors" }],
      ["an <embed>/<object>", { dest: "embed" }],
      ["an <object>", { dest: "object" }],
      ["a <frame> of a frameset (not an iframe)", { dest: "frame" }],
      ["an iframe prefetch or no-cors load", { mode: "no-cors" }],
      ["a mode missing", { mode: null }],
      ["values in another case", { dest: "IFRAME" }],
    ];
    for (const [label, overrides] of cases) expect(may(frame(overrides)), label).toBe(false);
  });

  it("refuses a frame whose Sec-Fetch-Site does not fit the approved origin", () => {
    expect(may(frame({ site: "same-origin" })), "framed by our own page").toBe(false);
    expect(may(frame({ site: "same-site" })), "framed by a site of our own domain").toBe(false);
    expect(may(frame({ site: "none" })), "user-initiated").toBe(false);
    expect(may(frame({ site: null })), "missing").toBe(false);
    expect(may(frame({ site: "cross-origin" })), "not a Fetch Metadata value").toBe(false);
  });

  it("refuses a Referer of any other origin, or one that is not an http(s) URL", () => {
    for (const referer of [
      "https://stranger.example/",
      "http://club.example/",
      "https://club.example:8443/",
      "https://sub.club.example/",
      "https://club.example.evil.test/",
      "not a url",
      "",
      "data:text/html,x",
      "about:blank",
    ]) {
      expect(may(frame({ referer })), referer).toBe(false);
    }
  });

  it("follows where the approved origin sits relative to the app", () => {
    // A club on a subdomain of the app's own site: the browser says same-site.
    expect(may(frame({ site: "same-site", referer: "https://club.results.example/" }), "https://club.results.example")).toBe(true);
    expect(may(frame({ site: "cross-site", referer: null }), "https://club.results.example")).toBe(false);
    // The app framing its own replay.
    expect(may(frame({ site: "same-origin", referer: `${APP}/x` }), APP)).toBe(true);
  });
});

describe("expectedFetchSites", () => {
  it("uses the Public Suffix List, private section included, and IP hosts as they are", () => {
    expect(expectedFetchSites("https://a.example.co.uk", "https://b.example.co.uk")).toEqual(["same-site"]);
    expect(expectedFetchSites("https://a.co.uk", "https://b.co.uk")).toEqual(["cross-site"]);
    expect(expectedFetchSites("https://alice.github.io", "https://bob.github.io")).toEqual(["cross-site"]);
    expect(expectedFetchSites("https://127.0.0.1:8443", "http://localhost:3000")).toEqual(["cross-site"]);
    expect(expectedFetchSites("https://127.0.0.1:8443", "https://127.0.0.1:9443")).toEqual(["same-site"]);
    expect(expectedFetchSites("https://club.example.com", "http://app.example.com")).toEqual(["same-site", "cross-site"]);
    expect(expectedFetchSites("https://club.example", "https://club.example")).toEqual(["same-origin"]);
    expect(expectedFetchSites("nonsense", "https://club.example")).toEqual([]);
  });
});

describe("launchRequestOf", () => {
  it("reads the four headers, case-insensitively", () => {
    const headers = new Headers({
      "Sec-Fetch-Dest": "iframe",
      "sec-fetch-mode": "navigate",
      "SEC-FETCH-SITE": "cross-site",
      Referer: `${CLUB}/`,
    });
    expect(launchRequestOf(headers)).toEqual(frame());
    expect(launchRequestOf(new Headers())).toEqual({ dest: null, mode: null, site: null, referer: null });
  });
});
