import type { Browser, Page, Response } from "@playwright/test";
import { dataLeaks, fileLeaks, textLeaks, type Forbidden } from "./health-leaks";

/**
 * The web privacy crawler's walk (e2e/health-web-privacy.spec.ts): from the
 * home page, same origin, breadth first, one page of each kind (route
 * pattern) except the pages of an effort, which it visits for every session
 * and training it reaches. Each page is loaded once, read as the server
 * renders it (HTML with its inline RSC payload, scripts off) and its visible
 * text read at every width by resizing the same tab. Every finding is checked
 * against two lists: what must never reach the viewer, and a canary (what the
 * viewer may see), which proves the same checks find a value that is there.
 */
export const WIDTHS = [
  { name: "1366 px", width: 1366, height: 900 },
  { name: "390 px", width: 390, height: 844 },
] as const;
/** Links never followed: they end the session, leave the app or change data. */
const SKIP = /^\/(api\/auth|signout|signin|signup)(\/|$)|\/(delete|revoke|unlink)(\/|$)/;
/** Files a link offers: fetched and searched instead of visited. */
const FILE_LINK = /\/report(\?|$)|\/download(\?|$)|\.(pdf|xlsx|fit|tcx|json|svc)(\?|$)/;
/** Pages of one effort: every session and training reached is read, since each carries its own crew's health data. */
const EFFORT_PAGE = /^\/(sessions|trainings)\/:id(\/|$)/;
/**
 * A walk is split in five tests that run at once: the sessions (session, analysis and compare pages),
 * the trainings (training pages and their set compares), each reached from the seed pages that list
 * them, the athletes (the roster, each athlete's page and load page), the developer portal and its API
 * references, and the rest (every other page; links of another part are left to it). Five, not three,
 * keeps each under the per-test limit on a loaded CI machine (a coach's "rest" took 45.6 s there once
 * the load and plan pages joined it).
 */
export type Part = "sessions" | "trainings" | "athletes" | "developer" | "rest";
/** The part a page kind belongs to. */
function partOf(key: string): Part {
  const path = key.split("?")[0];
  if (/^\/trainings\/:id(\/|$)/.test(path)) return "trainings";
  if (/^\/sessions\/:id(\/|$)/.test(path) || key.startsWith("/sessions/compare?")) return "sessions";
  if (/^\/athletes(\/|$)/.test(path)) return "athletes";
  if (/^\/developer(\/|$)/.test(path)) return "developer";
  return "rest";
}
/** A bound that fails the test rather than silently cutting the walk short. */
export const MAX_PAGES = 80;

/** Findings per channel, for the forbidden list and for the canary. */
export type Channel = "text" | "html" | "payload" | "file";
export interface Findings {
  leaks: string[];
  canary: Record<Channel, string[]>;
}
export const newFindings = (): Findings => ({ leaks: [], canary: { text: [], html: [], payload: [], file: [] } });

export interface Lists {
  forbidden: Forbidden;
  canary: Forbidden;
}

function record(findings: Findings, channel: Channel, where: string, leaks: string[], canaries: string[]) {
  for (const leak of leaks) findings.leaks.push(`${where} (${channel}): ${leak}`);
  for (const hit of canaries) findings.canary[channel].push(`${where}: ${hit}`);
}

export const checkText = (findings: Findings, lists: Lists, where: string, text: string) =>
  record(findings, "text", where, textLeaks(text, lists.forbidden), textLeaks(text, lists.canary));
export const checkData = (findings: Findings, lists: Lists, channel: "html" | "payload", where: string, raw: string) =>
  record(findings, channel, where, dataLeaks(raw, lists.forbidden), dataLeaks(raw, lists.canary));

export async function checkFile(page: Page, href: string, lists: Lists, findings: Findings) {
  const response = await page.request.get(href);
  if (!response.ok()) return null;
  const name = /filename="?([^";]+)/.exec(response.headers()["content-disposition"] ?? "")?.[1] ?? href;
  const type = response.headers()["content-type"] ?? "";
  const bytes = await response.body();
  record(
    findings,
    "file",
    `${href} (${name})`,
    await fileLeaks(name, type, bytes, lists.forbidden),
    await fileLeaks(name, type, bytes, lists.canary),
  );
  return name;
}

/** The route pattern of a page: ids become :id, tokens :token, the query keeps only its parameter names. */
export function kindOf(url: URL) {
  const path = url.pathname
    .replace(/\/\d+(?=\/|$)/g, "/:id")
    .replace(/\/[A-Za-z0-9_-]{20,}(?=\/|$)/g, "/:token")
    // The API references: one page per API and per tag, all one kind (documentation, the same for everyone).
    .replace(/^\/developer\/docs\/[^/]+(\/[^/]+)?$/, (_, tag) => (tag ? "/developer/docs/:api/:tag" : "/developer/docs/:api"));
  const keys = [...new Set(url.searchParams.keys())].sort().join("&");
  return { key: `${path}?${keys}`, limit: !keys && EFFORT_PAGE.test(path) ? MAX_PAGES : 1 };
}

/** Same-origin responses carrying data (JSON, RSC) a page loaded while the crawler was on it. */
export function collectPayloads(page: Page, origin: string) {
  const bodies: Promise<{ url: string; body: string }>[] = [];
  const listener = (response: Response) => {
    const type = response.headers()["content-type"] ?? "";
    if (!response.url().startsWith(origin) || !/json|x-component/.test(type)) return;
    bodies.push(
      response
        .text()
        .then((body) => ({ url: response.url(), body }))
        .catch(() => ({ url: response.url(), body: "" })),
    );
  };
  page.on("response", listener);
  return async () => {
    page.off("response", listener);
    return Promise.all(bodies);
  };
}

/** The sessions log's compare is a GET form (?ids=…): the crawler follows its URL with every listed session ticked (at most 9). */
async function logCompareUrl(page: Page): Promise<string | null> {
  // Each session has two boxes (the table's and the phone card's): one id each.
  const ids = [
    ...new Set(await page.$$eval("input[type=checkbox][name=ids]", (inputs) => inputs.map((i) => (i as HTMLInputElement).value))),
  ].slice(0, 9);
  return ids.length >= 2 ? `/sessions/compare?${ids.map((id) => `ids=${id}`).join("&")}` : null;
}

/** The visible text of the tab at every width, read by resizing (the server's HTML is the same at both). */
async function readAtEveryWidth(page: Page, where: string, lists: Lists, findings: Findings) {
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    checkText(findings, lists, `${where} at ${size.name}`, await page.locator("body").innerText());
  }
}

/** Ticks every "Compare …" checkbox a script-driven page offers (a training's set compare) and reads what appears and what it loaded. */
export async function tickCompares(page: Page, path: string, lists: Lists, findings: Findings, origin: string) {
  const payloads = collectPayloads(page, origin);
  await page.goto(path);
  await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15_000 });
  const boxes = page.getByRole("checkbox", { name: /^Compare work set/ });
  const count = Math.min(await boxes.count(), 9);
  for (let i = 0; i < count; i++) if (await boxes.nth(i).isEnabled()) await boxes.nth(i).check();
  await readAtEveryWidth(page, `${path} (${count} sets ticked)`, lists, findings);
  for (const { url, body } of await payloads()) checkData(findings, lists, "payload", `${path} → ${url}`, body);
}

export interface Crawl {
  visited: string[];
  files: Set<string>;
  interactive: string[];
  /** Links left unvisited when the bound was reached (the test fails on any). */
  left: string[];
}

/** Walks its part of the app as the person signed in in `page` (three tabs, scripts off) and checks every page it reads. */
export async function crawl(
  browser: Browser,
  page: Page,
  part: Part,
  start: string[],
  lists: Lists,
  findings: Findings,
  origin: string,
): Promise<Crawl> {
  const reader = await browser.newContext({
    baseURL: origin,
    javaScriptEnabled: false,
    viewport: WIDTHS[0],
    storageState: await page.context().storageState(),
  });
  const queue = [...start];
  const seen = new Set<string>(queue);
  const perKind = new Map<string, number>();
  const result: Crawl = { visited: [], files: new Set(), interactive: [], left: [] };
  const follow = (href: string, download: boolean) => {
    const url = new URL(href, origin);
    url.hash = "";
    const target = url.pathname + url.search;
    if (url.origin !== origin || SKIP.test(url.pathname)) return;
    if (download || FILE_LINK.test(target)) return void result.files.add(target);
    if (seen.has(target)) return;
    seen.add(target);
    const kind = kindOf(url);
    if (partOf(kind.key) !== part) return;
    const n = perKind.get(kind.key) ?? 0;
    if (n >= kind.limit) return;
    perKind.set(kind.key, n + 1);
    queue.push(target);
  };
  let busy = 0;
  const worker = async () => {
    const tab = await reader.newPage();
    for (;;) {
      if (result.visited.length >= MAX_PAGES) break;
      const path = queue.shift();
      if (path === undefined) {
        // Another worker may still be adding links.
        if (busy === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
        continue;
      }
      busy++;
      try {
        result.visited.push(path);
        const response = await tab.goto(path, { waitUntil: "domcontentloaded" });
        if (response) checkData(findings, lists, "html", path, await response.text());
        await readAtEveryWidth(tab, path, lists, findings);
        if (await tab.getByRole("checkbox", { name: /^Compare work set/ }).count()) result.interactive.push(path);
        const links = await tab.$$eval("a[href]", (as) =>
          as.map((a) => ({ href: (a as HTMLAnchorElement).href, download: a.hasAttribute("download") })),
        );
        for (const { href, download } of links) follow(href, download);
        const compare = await logCompareUrl(tab);
        if (compare) follow(compare, false);
      } finally {
        busy--;
      }
    }
    await tab.close();
  };
  await Promise.all([worker(), worker(), worker()]);
  result.left = queue;
  await reader.close();
  return result;
}
