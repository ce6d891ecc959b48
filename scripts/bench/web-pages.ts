/**
 * `npm run bench:web-pages`: how fast the web app's pages load in Chromium,
 * against the production build (`next start`, build first) on the demo data
 * (server/demo/seed-demo.ts, in a fresh database of its own). For every page
 * the menu reaches, plus the session, training, athlete, athlete load and compare pages and
 * the API references: the median of 5 visits of the load event
 * (PerformanceNavigationTiming.loadEventEnd) at 1366×900 and 390×844, signed
 * in as the demo coach, cache warm after a first unmeasured visit; and the
 * JavaScript the page loads (gzip bytes on the wire from a cold cache, as
 * `next start` serves them, until the network is idle after load: what the
 * route's manifest lists plus the chunks it imports on load).
 * Chromium: /usr/bin/chromium, or CHROMIUM_PATH.
 */
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { DEMO_ACCOUNTS, seedDemo } from "../../server/demo/seed-demo";
import { openDb } from "../../server/db/client";
import { benchPort, createFreshDatabase, fmt, startServer, stopServer } from "./bench-kit";

const VISITS = Number(process.env.BENCH_VISITS ?? 5);
const WIDTHS = [
  { name: "1366", width: 1366, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;

const FIXED_PAGES = [
  "/signin",
  "/home",
  "/",
  "/?view=week",
  "/?view=calendar",
  "/upload",
  "/trainings",
  "/plans",
  "/trainings/history",
  "/workouts",
  "/records",
  "/health",
  "/athletes",
  "/teams",
  "/tracks",
  "/equipment",
  "/devices",
  "/account",
  "/connected-apps",
  "/exports",
  "/squad",
  "/developer",
  "/developer/docs/results-api",
  "/developer/docs/results-api/results",
  "/developer/docs/data-api",
  "/developer/docs/data-api/sessions",
];

async function signIn(page: Page, base: string) {
  await page.goto(`${base}/signin`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Email").fill(DEMO_ACCOUNTS.coach.email);
  await page.getByLabel("Password").fill(DEMO_ACCOUNTS.coach.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

/** The first link under `list` to one of its items: the demo's own ids, whatever they are. */
async function firstLink(page: Page, base: string, list: string, pattern: RegExp): Promise<string | null> {
  await page.goto(`${base}${list}`);
  const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => pattern.test(h)) ?? null;
}

async function loadMs(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "load" });
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return nav.loadEventEnd - nav.startTime;
  });
}

/** Script bytes on the wire (compressed) for one cold visit: a fresh context shares no cache. */
async function scriptBytes(
  browser: Browser,
  storageState: BrowserContextOptions["storageState"],
  url: string,
  viewport: { width: number; height: number },
): Promise<number> {
  const context = await browser.newContext({ storageState, viewport });
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() === "script")
      sizes.push(
        request.sizes().then(
          (s) => s.responseBodySize,
          () => 0,
        ),
      );
  });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForLoadState("networkidle").catch(() => {});
  const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await context.close();
  return bytes;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_web_pages");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const t0 = performance.now();
  await seedDemo(handle.db);
  await handle.close();
  console.log(`demo data seeded in ${fmt((performance.now() - t0) / 1000)} s`);

  const port = benchPort(3450);
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(databaseUrl, port);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const setup = await browser.newPage();
    await signIn(setup, base);
    const session = await firstLink(setup, base, "/", /^\/sessions\/\d+$/);
    const training = await firstLink(setup, base, "/trainings", /^\/trainings\/\d+$/);
    const athlete = await firstLink(setup, base, "/athletes", /^\/athletes\/\d+$/);
    await setup.goto(`${base}/`);
    const ids = [
      ...new Set(await setup.locator("input[name=ids]").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))),
    ].slice(0, 2);
    const storageState = await setup.context().storageState();
    await setup.close();
    const pages = [
      ...FIXED_PAGES,
      session,
      training,
      athlete,
      athlete ? `${athlete}/load` : null,
      ids.length === 2 ? `/sessions/compare?ids=${ids[0]}&ids=${ids[1]}` : null,
    ].filter((p): p is string => Boolean(p));

    const rows: { path: string; ms: Record<string, number>; jsKb: number }[] = [];
    for (const path of pages) {
      const probe = await fetch(`${base}${path}`, {
        redirect: "manual",
        headers: { cookie: storageState.cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
      });
      // A page another branch adds (e.g. /exports) may not exist in this build.
      if (probe.status === 404) {
        console.log(`${path}: 404, skipped`);
        continue;
      }
      const ms: Record<string, number> = {};
      for (const { name, width, height } of WIDTHS) {
        // /signin redirects a signed-in person: measured signed out.
        const context = await browser.newContext({
          storageState: path === "/signin" ? undefined : storageState,
          viewport: { width, height },
        });
        const page = await context.newPage();
        await page.goto(`${base}${path}`, { waitUntil: "load" }); // warm: the compiled route, the browser cache
        const times: number[] = [];
        for (let i = 0; i < VISITS; i++) times.push(await loadMs(page, `${base}${path}`));
        ms[name] = median(times);
        await context.close();
      }
      const jsKb =
        (await scriptBytes(browser, path === "/signin" ? { cookies: [], origins: [] } : storageState, `${base}${path}`, {
          width: 1366,
          height: 900,
        })) / 1024;
      rows.push({ path, ms, jsKb });
      console.log(`${path}: ${fmt(ms["1366"], 0)} ms / ${fmt(ms["390"], 0)} ms, JS ${fmt(jsKb, 0)} KB`);
    }
    const generic = (p: string) => p.replace(/\/\d+(\/load)?$/, "/{id}$1").replace(/ids=\d+&ids=\d+/, "ids=…");
    console.log(`
| page | load 1366 px, median ms | load 390 px, median ms | JS loaded, KB gzip |
|---|---|---|---|
${rows.map((r) => `| \`${generic(r.path)}\` | ${fmt(r.ms["1366"], 0)} | ${fmt(r.ms["390"], 0)} | ${fmt(r.jsKb, 0)} |`).join("\n")}

slowest load: ${fmt(Math.max(...rows.flatMap((r) => Object.values(r.ms))), 0)} ms; largest JS: ${fmt(Math.max(...rows.map((r) => r.jsKb)), 0)} KB`);
  } finally {
    await browser.close();
    await stopServer(server);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
