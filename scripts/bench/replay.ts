/**
 * `npm run bench:replay` (docs/benchmarks.md "Replay"): what the replay
 * costs. (1) Artifact size per minute of recording for each boat class,
 * gzip and raw JSON, from simulated sessions processed by the real pipeline.
 * (2) In headless Chromium with software WebGL (SwiftShader), 640×360: the
 * player's frame rate with 9 boats and the time from opening the launch URL
 * to the first drawn frame, the launch framed by a stand-in page of the
 * approved origin (only such a frame navigation opens a launch:
 * docs/replay.md "Who may open a launch"). Needs a built app (npm run build) and the local
 * Postgres; creates its own database.
 */
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { createApplication } from "../../server/applications/applications";
import { createAthlete } from "../../server/athletes/athletes";
import { issueAccessToken } from "../../test/support/oauth-fixtures";
import { openDb } from "../../server/db/client";
import { createEmbed } from "../../server/embeds/create-embed";
import { drainEmbeddedRuns } from "../../server/jobs/embedded-runner";
import { buildReplayArtifact } from "../../server/replay/build-replay-artifact";
import { uploadResult } from "../../server/results/upload-result";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { processSvc } from "../../server/svc/process/process";
import { simulateSession } from "../../server/svc/simulator/simulate";
import type { VesselType } from "../../server/svc/types";
import { createTrack } from "../../server/tracks/tracks";
import { createUser, type SessionUser } from "../../server/users/users";
import { createFreshDatabase, fmt, startServer, stopServer } from "./bench-kit";

const PORT = Number(process.env.BENCH_PORT ?? 3914);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FPS_SECONDS = Number(process.env.BENCH_FPS_SECONDS ?? 5);
const keyring = loadKeyring({});
const VESSEL_IDS: Record<VesselType, number> = { K1: 1, K2: 2, K4: 3, C1: 4, C2: 5, C4: 6 };
const CLUB = "https://club.example";
const LANES: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4", "K1", "K2", "C1"];

function artifactSizes() {
  console.log("\n## Artifact size per minute of recording (30 Hz frames)\n");
  console.log("| class | distance | effort | frames | gzip | raw JSON | gzip per minute |");
  console.log("|---|---|---|---|---|---|---|");
  const perMinute: number[] = [];
  for (const [vessel, distanceM, seed] of [
    ["K1", 1000, 1],
    ["K2", 500, 2],
    ["K4", 500, 3],
    ["C1", 1000, 4],
    ["C2", 500, 5],
    ["C4", 500, 6],
    ["K1", 200, 7],
  ] as const) {
    const bytes = encodeSvc(simulateSession({ vessel, distanceM, seed }).content, keyring);
    const { replay } = processSvc(bytes, { vessel, distanceM }, keyring);
    const json = Buffer.from(JSON.stringify(replay));
    const gz = gzipSync(json);
    const minutes = replay.frame_count / 30 / 60;
    perMinute.push(gz.byteLength / minutes);
    console.log(
      `| ${vessel} | ${distanceM} m | ${fmt(minutes * 60)} s | ${replay.frame_count} | ${fmt(gz.byteLength / 1024)} KiB | ${fmt(json.byteLength / 1024)} KiB | ${fmt(gz.byteLength / 1024 / minutes)} KiB/min |`,
    );
  }
  console.log(`\nmean: ${fmt(perMinute.reduce((a, b) => a + b, 0) / perMinute.length / 1024)} KiB of gzip per minute of effort`);
}

async function seedNineLanes(databaseUrl: string): Promise<{ launchUrls: string[] }> {
  const handle = openDb({ databaseUrl, dataDir: "unused", maxConnections: 4 });
  await handle.migrate();
  const db = handle.db;
  const owner = await createUser(db, { name: "Bench", email: `bench-replay@bench.example`, password: "correct horse battery" });
  const trackId = (await createTrack(db, owner.id, { name: "Bench course" })).id;
  const athletes: number[] = [];
  for (const name of ["A", "B", "C", "D"])
    athletes.push((await createAthlete(db, owner.id, { name, subscriptionActiveUntil: "2099-01-01" })).id);
  const ids: number[] = [];
  for (const [index, vessel] of LANES.entries()) {
    const bytes = Buffer.from(encodeSvc(simulateSession({ vessel, distanceM: 500, seed: 100 + index }).content, keyring));
    const metadata = JSON.stringify({
      distance: 500,
      vessel_id: VESSEL_IDS[vessel],
      track_id: trackId,
      category_id: 1,
      pace_id: 1,
      athletes: athletes.slice(0, Number(vessel[1])),
    });
    const uploaded = await uploadResult(
      db,
      { user: owner as unknown as SessionUser, createdVia: "api", keyPairId: null, file: { filename: "b.svc", bytes }, metadata },
      { keyring },
    );
    ids.push(uploaded.id);
  }
  // The upload queued the artifact job; run it here, as the server's embedded runner would.
  await drainEmbeddedRuns(db, { retryBackoff: () => 0 });
  for (const id of ids) await buildReplayArtifact(db, id);
  const scopes = ["openid", "sessions:read", "svcsim:embed"];
  const { application } = await createApplication(db, owner.id, {
    name: "Bench club",
    surface: "data",
    clientType: "public",
    redirectUris: [`${CLUB}/cb`],
    embedOrigins: [CLUB],
    scopes,
  });
  const { grantId } = await issueAccessToken(db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes,
    audience: "bench",
  });
  const launchUrls: string[] = [];
  // Created just before the measurement: a launch is valid two minutes.
  for (let run = 0; run < RUNS; run++) {
    const created = await createEmbed(db, {
      audience: { subjectId: owner.id, surface: "data", applicationId: application.id },
      grantId,
      origin: CLUB,
      sessionIds: ids,
      now: new Date(),
    });
    if (!created.ok) throw new Error(`embed: ${JSON.stringify(created)}`);
    launchUrls.push(`http://127.0.0.1:${PORT}/api/v1/svcsim/launch/${created.launchToken}`);
  }
  await handle.close();
  return { launchUrls };
}

async function playerFigures() {
  const databaseUrl = await createFreshDatabase("svc_replay_bench");
  // Seeded before the server starts, so its job runner finds the artifacts already built.
  const { launchUrls } = await seedNineLanes(databaseUrl);
  const server = await startServer(databaseUrl, PORT);
  try {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // The stand-in club page counts as a public site framing a loopback server: allowed here (Local Network Access).
      args: [
        "--no-sandbox",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        "--ignore-gpu-blocklist",
        "--disable-features=LocalNetworkAccessChecks",
      ],
    });
    console.log(`\n## Player in headless Chromium (SwiftShader WebGL), 640×360, 9 boats, ${FPS_SECONDS} s per run\n`);
    console.log("| run | launch → first frame | launch → all 9 lanes | frames per second |");
    console.log("|---|---|---|---|");
    const fpsAll: number[] = [];
    for (const [run, url] of launchUrls.entries()) {
      const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
      // The club page, served by the browser itself: the iframe's navigation is the only kind that opens a launch.
      await page.route(`${CLUB}/`, (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<!doctype html><body style="margin:0"><iframe src="${url}" width="640" height="360" style="border:0"></iframe></body>`,
        }),
      );
      await page.goto(`${CLUB}/`);
      const frame = page.frameLocator("iframe");
      const player = frame.locator("[data-state]");
      await player.and(frame.locator("[data-first-frame-ms]")).waitFor({ timeout: 60_000 });
      await frame.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
      const firstFrameMs = Number(await player.getAttribute("data-first-frame-ms"));
      // The frame's clock starts at its navigation: the launch.
      const playerFrame = (await (await page.locator("iframe").elementHandle())!.contentFrame())!;
      const readyMs = await playerFrame.evaluate(() => performance.now());
      // A string, not a function: tsx's name helpers do not exist in the page.
      const fps = (await playerFrame.evaluate(`new Promise((resolve) => {
        let frames = 0;
        const start = performance.now();
        const tick = () => {
          frames++;
          if (performance.now() - start < ${FPS_SECONDS * 1000}) requestAnimationFrame(tick);
          else resolve(frames / ((performance.now() - start) / 1000));
        };
        requestAnimationFrame(tick);
      })`)) as number;
      fpsAll.push(fps);
      console.log(`| ${run + 1} | ${fmt(firstFrameMs, 0)} ms | ≤ ${fmt(readyMs, 0)} ms | ${fmt(fps)} |`);
      await page.close();
    }
    console.log(`\nmean frame rate: ${fmt(fpsAll.reduce((a, b) => a + b, 0) / fpsAll.length)} fps (target ≥ 30)`);
    await browser.close();
  } finally {
    await stopServer(server);
  }
}

artifactSizes();
// BENCH_PLAYER=0: the artifact sizes only (no build, no database needed).
if (process.env.BENCH_PLAYER !== "0") await playerFigures();
