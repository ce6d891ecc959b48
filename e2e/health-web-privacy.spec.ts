// Playwright's own `test`, not ./fixtures': the crawler reads server-rendered pages without waiting for
// hydration, and waits for it only where it operates a control (the compare checkboxes).
import { expect, test, type Page, type Response } from "@playwright/test";
import { dataLeaks, fileLeaks, textLeaks, type Forbidden } from "./health-leaks";
import { forbiddenFor, HEALTH_WORLD as W, type HealthViewer } from "./health-web-world";
import { openSessionActions, signIn } from "./helpers";

/**
 * The web privacy crawler (docs/access.md "Health data in every view"): signs
 * in as each person of the health world (scripts/e2e-seed-health-web.ts),
 * discovers pages by following links from their home page (same origin,
 * breadth first, bounded), downloads every file a link offers and every
 * export the session pages' Export menu offers, at a desktop and a phone
 * width, and fails on any health value of someone else in a page's text, in
 * the HTML and RSC/JSON payloads it loaded, or in a file.
 */
const WIDTHS = [
  { name: "1366 px", width: 1366, height: 900 },
  { name: "390 px", width: 390, height: 844 },
] as const;
const VIEWERS: HealthViewer[] = ["carla", "dora", "ada", "eli"];
/** Links never followed: they end the session, leave the app or change data. */
const SKIP = /^\/(api\/auth|signout|signin|signup)(\/|$)|\/(delete|revoke|unlink)(\/|$)/;
/** Files a link offers: fetched and searched instead of visited. */
const FILE_LINK = /\/report(\?|$)|\/download(\?|$)|\.(pdf|xlsx|fit|tcx|json|svc)(\?|$)/;
const MAX_PAGES = 60;
/** The crawl stops taking new pages after this long, so a test stays within its minute on a busy machine. */
const CRAWL_BUDGET_MS = 40_000;

/** Same-origin responses carrying data (JSON, RSC) a page loaded while the crawler was on it. */
function collectPayloads(page: Page, origin: string) {
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

/** A pattern per page kind: ids become :id, the query keeps only its parameter names. Bounds how many of one kind are visited. */
function kindOf(url: URL) {
  const path = url.pathname.replace(/\/\d+(?=\/|$)/g, "/:id").replace(/\/[A-Za-z0-9_-]{20,}(?=\/|$)/g, "/:token");
  const keys = [...new Set(url.searchParams.keys())].sort().join("&");
  return { key: `${path}?${keys}`, limit: keys ? 1 : 10 };
}

async function signInAs(page: Page, viewer: HealthViewer) {
  await signIn(page, W[viewer]);
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

async function checkFile(page: Page, href: string, forbidden: Forbidden, leaks: string[]) {
  const response = await page.request.get(href);
  if (!response.ok()) return;
  const name = /filename="?([^";]+)/.exec(response.headers()["content-disposition"] ?? "")?.[1] ?? href;
  for (const leak of await fileLeaks(name, response.headers()["content-type"] ?? "", await response.body(), forbidden)) leaks.push(`${href} (${name}): ${leak}`);
}

/** The sessions log's compare is a GET form (?ids=…): the crawler follows its URL with every listed session ticked (at most 9). */
async function logCompareUrl(page: Page): Promise<string | null> {
  // Each session has two boxes (the table's and the phone card's): one id each.
  const ids = [...new Set(await page.$$eval("input[type=checkbox][name=ids]", (inputs) => inputs.map((i) => (i as HTMLInputElement).value)))].slice(0, 9);
  return ids.length >= 2 ? `/sessions/compare?${ids.map((id) => `ids=${id}`).join("&")}` : null;
}

/** Ticks every "Compare …" checkbox a script-driven page offers (a training's set compare) and reads what appears. */
async function tickCompares(page: Page, path: string, forbidden: Forbidden, leaks: string[], origin: string) {
  const payloads = collectPayloads(page, origin);
  await page.goto(path);
  await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15_000 });
  const boxes = page.getByRole("checkbox", { name: /^Compare work set/ });
  const count = Math.min(await boxes.count(), 9);
  for (let i = 0; i < count; i++) if (await boxes.nth(i).isEnabled()) await boxes.nth(i).check();
  for (const leak of textLeaks(await page.locator("body").innerText(), forbidden)) leaks.push(`${path} (text, ${count} sets ticked): ${leak}`);
  for (const { url, body } of await payloads()) for (const leak of dataLeaks(body, forbidden)) leaks.push(`${path} → ${url}: ${leak}`);
}

for (const viewer of VIEWERS) {
  for (const size of WIDTHS) {
    test(`${viewer}'s pages at ${size.name} show no one else's health data`, async ({ page, browser, baseURL }) => {
      test.setTimeout(60_000);
      const started = Date.now();
      await page.setViewportSize({ width: size.width, height: size.height });
      await signInAs(page, viewer);
      const forbidden = forbiddenFor(viewer);
      const origin = new URL(baseURL!).origin;
      // Pages are read as the server renders them (text, HTML and its inline RSC payload), three at a time and
      // without running their scripts; pages with controls that reveal more are then operated in `page`.
      const reader = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: size.width, height: size.height }, storageState: await page.context().storageState() });
      const leaks: string[] = [];
      const queue = ["/"];
      const seen = new Set<string>(queue);
      const perKind = new Map<string, number>();
      const files = new Set<string>();
      const interactive: string[] = [];
      const visited: string[] = [];
      const follow = (href: string, download: boolean) => {
        const url = new URL(href, origin);
        url.hash = "";
        const target = url.pathname + url.search;
        if (url.origin !== origin || SKIP.test(url.pathname)) return;
        if (download || FILE_LINK.test(target)) return void files.add(target);
        if (seen.has(target)) return;
        seen.add(target);
        const kind = kindOf(url);
        const n = perKind.get(kind.key) ?? 0;
        if (n >= kind.limit) return;
        perKind.set(kind.key, n + 1);
        queue.push(target);
      };
      const worker = async () => {
        const tab = await reader.newPage();
        for (;;) {
          if (Date.now() - started > CRAWL_BUDGET_MS || visited.length >= MAX_PAGES) break;
          const path = queue.shift();
          if (path === undefined) {
            // Another worker may still be adding links.
            if (busy === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
            continue;
          }
          busy++;
          try {
            visited.push(path);
            const response = await tab.goto(path, { waitUntil: "domcontentloaded" });
            if (response) for (const leak of dataLeaks(await response.text(), forbidden)) leaks.push(`${path} (HTML): ${leak}`);
            for (const leak of textLeaks(await tab.locator("body").innerText(), forbidden)) leaks.push(`${path} (text): ${leak}`);
            if (await tab.getByRole("checkbox", { name: /^Compare work set/ }).count()) interactive.push(path);
            const links = await tab.$$eval("a[href]", (as) => as.map((a) => ({ href: (a as HTMLAnchorElement).href, download: a.hasAttribute("download") })));
            for (const { href, download } of links) follow(href, download);
            const compare = await logCompareUrl(tab);
            if (compare) follow(compare, false);
          } finally {
            busy--;
          }
        }
        await tab.close();
      };
      let busy = 0;
      await Promise.all([worker(), worker(), worker()]);
      for (const path of interactive) await tickCompares(page, path, forbidden, leaks, origin);
      for (const href of files) await checkFile(page, href, forbidden, leaks);
      await reader.close();
      // The crawl reached the kinds of page that hold health data: sessions, their analysis, trainings (Eli sees none), athletes, health.
      const reached = (pattern: RegExp) => visited.some((p) => pattern.test(p));
      expect({ session: reached(/^\/sessions\/\d+$/), training: viewer === "eli" || reached(/^\/trainings\/\d+$/), analysis: reached(/^\/sessions\/\d+\/analysis$/), athletes: reached(/^\/athletes/), health: viewer === "dora" || reached(/^\/health$/) }).toEqual({
        session: true,
        training: true,
        analysis: true,
        athletes: true,
        health: true,
      });
      test.info().annotations.push({ type: "crawl", description: `${visited.length} pages (${interactive.length} operated), ${files.size} files in ${Date.now() - started} ms` });
      expect(leaks, `health data of someone else reached ${viewer}`).toEqual([]);
    });

    // Every format of every session at the desktop width, one test per session (the home page's order) so
    // each stays within its minute; at the phone width every seat of the first session in JSON, the file that
    // carries all an export may hold (the files are built on the server from the same request whatever the width).
    const desktop = size.width >= 700;
    // At the desktop width each session's formats are split in two halves (PDFs are the slow ones), so no test nears its minute.
    const parts = desktop ? [0, 1, 2, 3].flatMap((index) => [0, 1].map((half) => ({ index, half }))) : [{ index: null, half: null }];
    for (const { index, half } of parts) {
      test(`${viewer}'s exports at ${size.name}${index === null ? "" : `, session ${index + 1}, formats ${half === 0 ? "A" : "B"}`} hold no one else's health data`, async ({ page, baseURL }) => {
        test.setTimeout(60_000);
        await page.setViewportSize({ width: size.width, height: size.height });
        await signInAs(page, viewer);
        const forbidden = forbiddenFor(viewer);
        const origin = new URL(baseURL!).origin;
        const leaks: string[] = [];
        // Session pages reached from the home page; each offers the Export menu.
        await page.goto("/");
        const sessions = [...new Set(await page.$$eval("a[href]", (as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname)))].filter((p) => /^\/sessions\/\d+$/.test(p));
        expect(sessions.length).toBeGreaterThan(0);
        test.skip(index !== null && index >= sessions.length, `${viewer} has ${sessions.length} sessions`);
        // The options offered, read from each session's Export menu.
        const jobs: { path: string; format: string; seat: string }[] = [];
        for (const path of [sessions[index ?? 0]]) {
          await page.goto(path);
          const menu = (await openSessionActions(page)).getByRole("region", { name: "Export" });
          const formats = await menu.getByLabel("Format").locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
          const seatSelect = menu.getByLabel("Seat");
          const seats = (await seatSelect.count()) ? await seatSelect.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)) : ["1"];
          // Desktop: every format for the stroke seat (whose heart rate the unit recorded); phone: every seat in JSON.
          const options = desktop ? formats.filter((_, i) => i % 2 === half).map((format) => ({ format, seat: seats[0] })) : seats.map((seat) => ({ format: "json", seat }));
          jobs.push(...options.map((o) => ({ path, ...o })));
        }
        // One tab per option, all queued before any is awaited: the jobs wait in the server's queue together.
        const started = await Promise.all(
          jobs.map(async ({ path, format, seat }) => {
            const tab = await page.context().newPage();
            await tab.goto(path);
            const menu = (await openSessionActions(tab)).getByRole("region", { name: "Export" });
            await menu.getByLabel("Format").selectOption(format);
            if (await menu.getByLabel("Seat").count()) await menu.getByLabel("Seat").selectOption(seat);
            await menu.getByRole("button", { name: "Export" }).click();
            return { tab, menu, label: `${path} ${format} seat ${seat}` };
          }),
        );
        const refusals: string[] = [];
        for (const { tab, menu, label } of started) {
          const link = menu.getByRole("link", { name: "Download" });
          // A refused export (e.g. another person's seat: "Seat not found") builds no file, so leaks nothing.
          const refused = menu.getByRole("alert").filter({ hasText: /\S/ });
          await expect(link.or(refused), label).toBeVisible({ timeout: 45_000 });
          if (await link.count()) await checkFile(tab, new URL((await link.getAttribute("href"))!, origin).pathname, forbidden, leaks);
          else refusals.push(`${label}: ${await refused.first().innerText()}`);
          await tab.close();
        }
        const exported = started.length - refusals.length;
        test.info().annotations.push({ type: "exports", description: `${exported} files; refused: ${refusals.join("; ") || "none"}` });
        expect(leaks, `health data of someone else in ${viewer}'s exports`).toEqual([]);
      });
    }
  }
}
