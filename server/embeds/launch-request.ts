import { getDomain } from "tldts";

/**
 * What a launch request says about how it was made: the browser's Fetch
 * Metadata headers and the Referer. Read once from the request by the launch
 * page; the domain decides from these values alone.
 */
export interface LaunchRequest {
  /** `Sec-Fetch-Dest`: "iframe" for a navigation of an iframe. */
  dest: string | null;
  /** `Sec-Fetch-Mode`: "navigate" for a navigation. */
  mode: string | null;
  /** `Sec-Fetch-Site`: the initiator's relation to our origin (same-origin, same-site, cross-site, none). */
  site: string | null;
  /** `Referer`, when the framing page's referrer policy sends one. */
  referer: string | null;
}

export function launchRequestOf(headers: Pick<Headers, "get">): LaunchRequest {
  return {
    dest: headers.get("sec-fetch-dest"),
    mode: headers.get("sec-fetch-mode"),
    site: headers.get("sec-fetch-site"),
    referer: headers.get("referer"),
  };
}

/**
 * May this request consume a launch whose approved origin is `approvedOrigin`
 * (docs/replay.md "Who may open a launch")? Only a browser's navigation of an
 * iframe (`Sec-Fetch-Dest: iframe`, `Sec-Fetch-Mode: navigate`) whose
 * initiator can be the approved origin: `Sec-Fetch-Site` is what a page of
 * that origin would make the browser send, and a Referer, when one is sent,
 * is of that origin. Everything else (a link preview, a scanner, a copied
 * URL opened in a tab, a stranger's frame that shows its referrer) leaves
 * the launch unused.
 *
 * This stops accidental consumption, not a determined client: anyone can
 * send these headers. `frame-ancestors` stays the browser's own guard over
 * who may show the player.
 */
export function mayConsumeLaunch(request: LaunchRequest, options: { approvedOrigin: string; appOrigin: string }): boolean {
  if (request.dest !== "iframe" || request.mode !== "navigate") return false;
  if (!request.site || !expectedFetchSites(options.approvedOrigin, options.appOrigin).includes(request.site)) return false;
  if (request.referer === null) return true;
  const approved = originOf(options.approvedOrigin);
  return approved !== null && originOf(request.referer) === approved;
}

/**
 * The `Sec-Fetch-Site` a page of `framer` makes a browser send for a
 * navigation to `target` (Fetch Metadata: same-origin, else same-site when
 * both share a registrable domain by the Public Suffix List, private section
 * included as browsers use it, else cross-site). When only the schemes
 * differ (an HTTPS club site framing a plain-HTTP local run) browsers differ
 * on whether that is the same site, so both answers are accepted.
 */
export function expectedFetchSites(framer: string, target: string): string[] {
  const a = safeUrl(framer);
  const b = safeUrl(target);
  if (!a || !b) return [];
  if (a.origin === b.origin) return ["same-origin"];
  if (siteOf(a.hostname) !== siteOf(b.hostname)) return ["cross-site"];
  return a.protocol === b.protocol ? ["same-site"] : ["same-site", "cross-site"];
}

/** The registrable domain, or the host itself for an IP address or a name like localhost. */
const siteOf = (hostname: string) => getDomain(hostname, { allowPrivateDomains: true }) ?? hostname.toLowerCase();

function safeUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const originOf = (value: string) => {
  const url = safeUrl(value);
  return url && (url.protocol === "https:" || url.protocol === "http:") ? url.origin : null;
};
