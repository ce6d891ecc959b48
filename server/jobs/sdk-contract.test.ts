import { randomUUID } from "node:crypto";
import { InngestTestEngine, mockCtx } from "@inngest/test";
import { and, asc, desc, eq, gt } from "drizzle-orm";
import type { Context } from "inngest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inngestFunctions } from "../../inngest";
import { createAthlete } from "../athletes/athletes";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { Db, DbHandle } from "../db/client";
import { jobRuns, jobSteps, results, type StoredJobEvent } from "../db/schema";
import { openPrivateTestDb } from "../../test/support/test-db";
import { requestDeviceDelete } from "../devices/device-jobs";
import { requestExport } from "../exports/export-jobs";
import { startReprocessRun } from "../reprocess/reprocess-runs";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createTrainingFromUpload } from "../trainings/create-training";
import { simulatedTrainingFile, vesselIdOf } from "../../test/support/trainings";
import { createUser, type SessionUser } from "../users/users";
import { emitWebhookEvent } from "../webhooks/emit-event";
import { createEndpoint } from "../webhooks/endpoints";
import { startReceiver } from "../../test/support/webhook-receiver";
import { drainEmbeddedRuns } from "./embedded-runner";
import type { JobFunction } from "./job-functions";

/**
 * The contract that keeps the embedded runner honest about the SDK
 * (docs/architecture.md "The embedded runner and the Inngest SDK"): the
 * runner executes functions through non-public SDK entry points, confined to
 * server/jobs/execute-function.ts. Each of the app's functions runs here on
 * real domain code through the embedded runner; its recorded steps are then
 * replayed through @inngest/test, the SDK team's own engine, which must walk
 * the same steps in the same order and end with the same result. An SDK
 * upgrade that changes what the runner relies on fails here.
 */

const keyring = loadKeyring({});
const quiet = { info() {}, warn() {}, error() {} };
// A database of its own: the reprocessing run's scope is every stored original, only one run may be active,
// and other test files' drains would claim these runs on a shared Postgres.
let handle: DbHandle;
let db: Db;
let anna: SessionUser;
let sessionId: number;
let deviceId: number;
const receiver = startReceiver(() => 204);

beforeAll(async () => {
  handle = await openPrivateTestDb();
  db = handle.db;
  anna = await createUser(db, { name: "Anna Contract", email: `anna-${randomUUID()}@test.example`, password: "long enough password" });
  const athlete = await createAthlete(db, anna.id, { name: "Anna", subscriptionActiveUntil: "2099-01-01" });
  const track = await createTrack(db, anna.id, { name: "Contract Basin" });
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 5 }).content, keyring));
  const metadata = JSON.stringify({ distance: 200, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] });
  sessionId = (
    await uploadResult(
      db,
      { user: anna, createdVia: "web", keyPairId: null, file: { filename: "contract.svc", bytes }, metadata },
      { keyring },
    )
  ).id;
  const [row] = await db.select({ deviceId: results.deviceId }).from(results).where(eq(results.id, sessionId));
  deviceId = row.deviceId!;
});
afterAll(async () => {
  await (await receiver).close();
  await handle?.close();
});

/** How each function is started through the domain code that starts it in the app. */
const scenarios: Record<string, () => Promise<void>> = {
  "build-replay-artifact": async () => {}, // queued by the upload in beforeAll
  "process-training": async () => {
    const file = simulatedTrainingFile({ spec: "3x250m/60s", seed: 41, keyring });
    await createTrainingFromUpload(db, {
      user: anna,
      createdVia: "api",
      vesselId: await vesselIdOf(db, "K1"),
      file: { filename: "pieces.svc", bytes: file.bytes },
    });
  },
  "build-export": async () => {
    await requestExport(db, {
      requester: { subjectUserId: anna.id, applicationId: null },
      source: { kind: "session", sessionId },
      options: { format: "json", athlete: 1, splits: 4, lang: "en", mode: "full", healthAllowed: true },
      idempotency: null,
    });
  },
  "reprocess-stored-files": async () => {
    await startReprocessRun(db, { requestedByUserId: null, via: "cli" });
  },
  "dispatch-webhooks": async () => {
    const { owner, application } = await makeOwnerAndApp(db);
    await issueAccessToken(db, {
      userId: owner.id,
      applicationId: application.id,
      clientId: application.clientId,
      scopes: ["openid", "sessions:read"],
      audience: "https://results.example/api/v1",
    });
    await createEndpoint(db, owner.id, application.id, { url: (await receiver).url, eventTypes: ["session.created"] });
    await db.transaction((tx) => emitWebhookEvent(tx, { type: "session.created", userId: owner.id, ids: { session_id: 77 } }));
  },
  // Last: it deletes the stored originals the others read.
  "run-device-job": async () => {
    await requestDeviceDelete(db, { subjectUserId: anna.id, deviceId });
  },
};

interface RecordedRun {
  event: StoredJobEvent;
  status: string;
  output: unknown;
  steps: { stepId: string; outcome: string; output: unknown; error: { name: string; message: string } | null }[];
}

/** Works the function's newest run to its end with the embedded runner; a sleep ends at once (time passes). */
async function runEmbedded(fn: JobFunction): Promise<RecordedRun> {
  for (let pass = 0; pass < 20; pass++) {
    await drainEmbeddedRuns(db, { functions: [fn], retryBackoff: () => 0, maxWaitMs: 0, logger: quiet });
    const sleeping = await db
      .update(jobRuns)
      .set({ runAfter: new Date() })
      .where(and(eq(jobRuns.functionId, fn.id()), eq(jobRuns.status, "queued"), gt(jobRuns.runAfter, new Date())))
      .returning({ id: jobRuns.id });
    if (!sleeping.length) break;
  }
  const [run] = await db.select().from(jobRuns).where(eq(jobRuns.functionId, fn.id())).orderBy(desc(jobRuns.createdAt)).limit(1);
  if (!run) throw new Error(`no run of ${fn.id()}: its scenario sent no event that triggers it`);
  const steps = await db.select().from(jobSteps).where(eq(jobSteps.runId, run.id)).orderBy(asc(jobSteps.position));
  return {
    event: run.event,
    status: run.status,
    output: run.output,
    steps: steps.map((step) => ({ stepId: step.stepId, outcome: step.outcome, output: step.output, error: step.error })),
  };
}

/** The same run through @inngest/test, each step answered with what the embedded runner recorded for it. */
async function replayWithTestEngine(fn: JobFunction, recorded: RecordedRun) {
  const engine = new InngestTestEngine({
    function: fn,
    events: [{ ...recorded.event }],
    steps: recorded.steps.map((step) => ({
      id: step.stepId,
      handler: () => {
        if (step.outcome === "failed") throw Object.assign(new Error(step.error?.message), { name: step.error?.name });
        return step.output;
      },
    })),
    transformCtx: (ctx: Context.Any) => ({ ...mockCtx(ctx), db }),
  });
  const { result, error, ctx } = await engine.execute();
  // Every step tool the function called, in call order (step.run and the sleeps are separate spies).
  const tools = [ctx.step.run, ctx.step.sleep, ctx.step.sleepUntil] as unknown as {
    mock: { calls: unknown[][]; invocationCallOrder: number[] };
  }[];
  const calls = tools.flatMap((tool) =>
    tool.mock.calls.map((args, i) => ({ id: String(args[0]), order: tool.mock.invocationCallOrder[i] })),
  );
  const stepIds = calls.sort((a, b) => a.order - b.order).map((call) => call.id);
  return { result, error, stepIds };
}

describe("each of the app's functions: embedded runner and @inngest/test walk the same steps", () => {
  it("has a scenario for every function of the registry", () => {
    expect(Object.keys(scenarios).sort()).toEqual(inngestFunctions.map((fn) => fn.id()).sort());
  });

  for (const id of Object.keys(scenarios)) {
    it(id, async () => {
      const fn = inngestFunctions.find((candidate) => candidate.id() === id)!;
      await scenarios[id]();
      const recorded = await runEmbedded(fn);
      expect(recorded.status, JSON.stringify(recorded)).toBe("completed");
      expect(recorded.steps.length).toBeGreaterThan(0);

      const replayed = await replayWithTestEngine(fn, recorded);
      expect(replayed.error).toBeUndefined();
      expect(replayed.stepIds).toEqual(recorded.steps.map((step) => step.stepId));
      // Stored as JSON by the runner; the SDK hands back the (JSON) step data it was given.
      expect(JSON.parse(JSON.stringify(replayed.result ?? null))).toEqual(recorded.output);
    });
  }
});
