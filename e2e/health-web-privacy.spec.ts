// Playwright's own `test`, not ./fixtures': the crawler reads server-rendered pages without waiting for
// hydration, and waits for it only where it operates a control (the compare checkboxes).
import { expect, test, type Page } from "@playwright/test";
import {
  checkData,
  checkFile,
  crawl,
  MAX_PAGES,
  newFindings,
  tickCompares,
  WIDTHS,
  type Channel,
  type Findings,
  type Lists,
} from "./health-crawl";
import { gunzipSync } from "node:zlib";
import { allowedFor, forbiddenFor, forFiles, HEALTH_WORLD as W, readsPrivateNotes, type HealthViewer } from "./health-web-world";
import { openSessionActions, signInOverHttp } from "./helpers";

/**
 * The web privacy crawler (docs/access.md "Health data in every view"): signs
 * in as each person of the health world (scripts/e2e-seed-health-web.ts),
 * discovers pages by following links from their home page (e2e/health-crawl.ts:
 * one page per route pattern, every session and training), reads each page's
 * text at 1366 and 390 px, its HTML and RSC payload, the JSON and RSC a
 * training's set compare loads, every file a link offers, and every export
 * (every format of every session, every seat in JSON), and fails on any health
 * value of someone else. Every check also runs against a canary, the person's
 * own values, which must be found: a crawler that stopped seeing the data
 * would otherwise pass.
 */
const VIEWERS: HealthViewer[] = ["carla", "dora", "ada", "eli"];
/** The person who paddles stroke in every session they have: their own heart rate, the canary, is in every file they export. */
const CANARY_IN_EVERY_FILE: HealthViewer = "ada";
const EXPORT_GROUPS = [
  { name: "PDF reports", formats: /^pdf/, seats: false },
  { name: "data files and every seat", formats: /^(?!pdf)/, seats: true },
];

test.describe.configure({ mode: "parallel" });

/** The crawl's five parts, run at once (e2e/health-crawl.ts). */
const PART_NAMES = {
  sessions: "sessions and their analysis and compares",
  trainings: "trainings and their set compares",
  athletes: "athletes and their load",
  developer: "the developer portal",
  rest: "all other pages",
} as const;

const listsFor = (viewer: HealthViewer): Lists => ({ forbidden: forbiddenFor(viewer), canary: allowedFor(viewer) });
const summary = (findings: Findings) =>
  Object.fromEntries(Object.entries(findings.canary).map(([channel, hits]) => [channel, hits.length])) as Record<Channel, number>;

/** A tRPC call made by the page's own fetch (as the Export menu makes it), with its JSON answer. */
async function trpcFromPage(page: Page, method: "GET" | "POST", procedure: string, input: unknown) {
  return page.evaluate(
    async ({ method, procedure, input }) => {
      const url = method === "GET" ? `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}` : `/api/trpc/${procedure}`;
      const response = await fetch(
        url,
        method === "GET" ? {} : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(input) },
      );
      return response.json();
    },
    { method, procedure, input },
  );
}

/** The session pages on the person's home page, in its order. */
async function homeSessions(page: Page) {
  await page.goto("/");
  return [...new Set(await page.$$eval("a[href]", (as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname)))].filter((p) =>
    /^\/sessions\/\d+$/.test(p),
  );
}

for (const viewer of VIEWERS) {
  for (const part of ["sessions", "trainings", "athletes", "developer", "rest"] as const) {
    test(`${viewer}'s pages (${PART_NAMES[part]}) at ${WIDTHS.map((w) => w.name).join(" and ")} show no one else's health data`, async ({
      page,
      browser,
      baseURL,
    }) => {
      await signInOverHttp(page, W[viewer]);
      const origin = new URL(baseURL!).origin;
      const lists = listsFor(viewer);
      const findings = newFindings();
      const started = Date.now();
      // The efforts are listed on the sessions log, the trainings list and the home; health is not in every person's menu.
      const walk = await crawl(
        browser,
        page,
        part,
        part === "rest"
          ? ["/", "/health"]
          : part === "athletes"
            ? ["/", "/athletes"]
            : part === "developer"
              ? ["/", "/developer"]
              : ["/", "/trainings", "/home"],
        lists,
        findings,
        origin,
      );
      for (const path of walk.interactive) await tickCompares(page, path, lists, findings, origin);
      // Files leave the page: the private notes are forbidden there for coaches too.
      for (const href of walk.files) await checkFile(page, href, forFiles(lists), findings);
      test.info().annotations.push({
        type: "crawl",
        description: `${walk.visited.length} pages (${walk.interactive.length} operated), ${walk.files.size} files in ${Date.now() - started} ms; canary hits ${JSON.stringify(summary(findings))}`,
      });
      expect(walk.left, `links left unread after ${MAX_PAGES} pages`).toEqual([]);
      // The walk reached the kinds of page that hold health data: sessions, their analysis, trainings (Eli sees none); athletes, health.
      const reached = (pattern: RegExp) => walk.visited.some((p) => pattern.test(p));
      if (part === "sessions") {
        expect({ session: reached(/^\/sessions\/\d+$/), analysis: reached(/^\/sessions\/\d+\/analysis$/) }).toEqual({
          session: true,
          analysis: true,
        });
      } else if (part === "trainings") {
        expect(viewer === "eli" || reached(/^\/trainings\/\d+$/), "a training page reached").toBe(true);
      } else if (part === "developer") {
        expect(reached(/^\/developer\/docs\//), "an API reference reached").toBe(true);
      } else if (part === "athletes") {
        expect(reached(/^\/athletes\/\d+$/), "an athlete's page reached").toBe(true);
      } else {
        expect(reached(/^\/health$/), "the health page reached").toBe(true);
      }
      // The same checks find the person's own values in what they read and in what the server sent (Dora's are
      // only on her health page: she paddles no effort).
      // (Heart rate is on session pages; a training part proves its sight by the private notes below.)
      if (part === "rest" || (part === "sessions" && W.markers[viewer].bpm !== null)) {
        expect(findings.canary.text.length, "canary in page text").toBeGreaterThan(0);
        expect(findings.canary.html.length, "canary in the HTML").toBeGreaterThan(0);
      }
      // The coaches read the private notes where they are kept (the canary); an athlete's lists forbid them.
      if (readsPrivateNotes(viewer)) {
        const notes = {
          sessions: [W.privateNotes.session],
          trainings: [W.privateNotes.training],
          athletes: [W.privateNotes.athlete],
          developer: [],
          rest: [],
        }[part];
        for (const note of notes)
          expect(
            findings.canary.text.some((hit) => hit.includes(note)),
            `private note "${note}" read`,
          ).toBe(true);
      }
      expect(findings.leaks, `health data or private notes of someone else reached ${viewer}`).toEqual([]);
    });
  }

  // Every format once per person (the server builds a file the same way for every session), the sessions taken in
  // turn so each is exported; and every seat of every crew boat in JSON, the file that carries all an export may hold.
  // The PDFs (the slow builds) and the data files are two tests, so both run at once.
  for (const group of EXPORT_GROUPS) {
    test(`${viewer}'s exports (${group.name}) hold no one else's health data`, async ({ page, baseURL }) => {
      await signInOverHttp(page, W[viewer]);
      const origin = new URL(baseURL!).origin;
      // Exports, share pages and the replay carry no private note, for coaches neither.
      const lists = forFiles(listsFor(viewer));
      const findings = newFindings();
      const sessions = await homeSessions(page);
      expect(sessions.length).toBeGreaterThan(0);
      if (group.seats)
        for (const path of sessions) {
          const resultId = Number(path.split("/").pop());
          const share = await trpcFromPage(page, "POST", "sessions.createShareLink", { resultId });
          const sharePage = await page.request.get(new URL(share.result.data.url, origin).pathname);
          checkData(findings, lists, "html", `share page of ${path}`, await sharePage.text());
          const replay = await page.request.get(`${path}/replay`);
          if (replay.ok()) checkData(findings, lists, "payload", `replay of ${path}`, gunzipSync(await replay.body()).toString("utf8"));
        }
      // The options each session's Export menu offers.
      const menus: { sessionId: number; formats: string[]; seats: number[] }[] = [];
      for (const path of sessions) {
        await page.goto(path);
        const menu = (await openSessionActions(page)).getByRole("region", { name: "Export" });
        const formats = await menu
          .getByLabel("Format")
          .locator("option")
          .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
        const seatSelect = menu.getByLabel("Seat");
        const seats = (await seatSelect.count())
          ? await seatSelect.locator("option").evaluateAll((os) => os.map((o) => Number((o as HTMLOptionElement).value)))
          : [1];
        menus.push({ sessionId: Number(path.split("/").pop()), formats, seats });
      }
      const formats = menus[0].formats;
      expect(formats.length, "formats the Export menu offers").toBe(6);
      // Format i of session i mod n, stroke seat first (whose heart rate the unit recorded); where the person may
      // not export that seat ("Seat not found"), the next seat, then the next session, so every format yields a file.
      type Job = { sessionId: number; format: string; athlete: number };
      const choices = (format: string, i: number): Job[] =>
        menus.flatMap((_, k) =>
          menus[(i + k) % menus.length].seats.map((athlete) => ({ sessionId: menus[(i + k) % menus.length].sessionId, format, athlete })),
        );
      const wanted = formats.flatMap((format, i) => (group.formats.test(format) ? [choices(format, i)] : []));
      if (group.seats)
        for (const menu of menus)
          wanted.push(...menu.seats.slice(1).map((athlete) => [{ sessionId: menu.sessionId, format: "json", athlete }]));
      // The request the menu's Export button sends, from the page as the menu sends it, all queued before any is
      // awaited: the jobs wait in the server's queue together.
      const refusals: string[] = [];
      const queued = await Promise.all(
        wanted.map(async (candidates) => {
          let last: Job & { label: string; jobId?: string; refused?: string } = { ...candidates[0], label: "" };
          for (const job of candidates) {
            const body = await trpcFromPage(page, "POST", "exports.create", { ...job, lang: "en", splits: 4 });
            last = {
              ...job,
              label: `session ${job.sessionId} ${job.format} seat ${job.athlete}`,
              jobId: body.result?.data?.jobId,
              refused: body.error?.message,
            };
            if (last.jobId) break;
            // Kept for the annotation; the last refusal is recorded below.
            if (job !== candidates.at(-1)) refusals.push(`${last.label}: ${last.refused}`);
          }
          return last;
        }),
      );
      const formatsWithCanary = new Set<string>();
      const exported = new Set<string>();
      for (const job of queued) {
        // A refused export (e.g. another person's seat: "Seat not found") builds no file, so leaks nothing.
        if (!job.jobId) {
          refusals.push(`${job.label}: ${job.refused}`);
          continue;
        }
        let status: { state: string; error: string | null; downloadUrl: string | null } = {
          state: "queued",
          error: null,
          downloadUrl: null,
        };
        await expect
          .poll(
            async () => {
              status = (await trpcFromPage(page, "GET", "exports.status", { jobId: job.jobId })).result.data;
              return status.state;
            },
            { message: job.label, timeout: 30_000, intervals: [250, 500, 1000] },
          )
          .toMatch(/^(succeeded|failed)$/);
        if (!status.downloadUrl) {
          refusals.push(`${job.label}: ${status.error}`);
          continue;
        }
        const before = findings.canary.file.length;
        await checkFile(page, new URL(status.downloadUrl, origin).pathname, lists, findings);
        if (findings.canary.file.length > before) formatsWithCanary.add(job.format);
        exported.add(job.format);
      }
      test.info().annotations.push({
        type: "exports",
        description: `${exported.size} formats exported; canary found in ${[...formatsWithCanary].join(", ") || "none"}; refused: ${refusals.join("; ") || "none"}`,
      });
      expect([...exported].sort(), `formats ${viewer} exported`).toEqual(formats.filter((f) => group.formats.test(f)).sort());
      // Ada paddles stroke in each of her sessions: her own heart rate is in every file, so the checks would see another's there.
      // (The compact PDF prints no heart rate: server/exports/builders/pdf.ts.)
      const carryHeartRate = formats.filter((f) => group.formats.test(f) && f !== "pdf");
      if (viewer === CANARY_IN_EVERY_FILE)
        expect([...formatsWithCanary].sort(), "formats whose file showed the canary").toEqual(carryHeartRate.sort());
      expect(findings.leaks, `health data of someone else in ${viewer}'s exports`).toEqual([]);
    });
  }
}
