/**
 * Accounts the end-to-end specs need that sign-up cannot make (roles other
 * than coach, the unlimited-externals privilege). Runs before the e2e server
 * starts (PGlite allows one process at a time). Idempotent.
 */
import { eq, sql } from "drizzle-orm";
import { uploadResult } from "../server/results/upload-result";
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { simulateSession } from "../server/svc/simulator/simulate";
import { getDbHandle } from "../server/db/client";
import { reprocessRuns, resultDerived, results, users } from "../server/db/schema";
import { PROCESSING_CORE_VERSION } from "../server/svc/process/version";
import { createTrack } from "../server/tracks/tracks";
import { E2E_ACCOUNTS, E2E_OLDER_CORE_OWNER, E2E_UNPROCESSED_DESCRIPTION } from "../e2e/accounts";
import { createUser } from "../server/users/users";
import { seedDataApiWorld } from "./e2e-seed-data-api";
import { seedHealthWebWorld } from "./e2e-seed-health-web";
import { seedWebLogWorld } from "./e2e-seed-web-log";

const handle = getDbHandle();
await handle.migrate();
for (const account of Object.values(E2E_ACCOUNTS)) {
  const [existing] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
  if (!existing) {
    await createUser(handle.db, account, { role: account.role, unlimitedExternals: account.unlimitedExternals });
  }
}
// A result whose processing failed (no strokes or derived data): the PDF report must answer 422 for it.
const [owner] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, E2E_ACCOUNTS.privileged.email));
const [unprocessed] = await handle.db.select({ id: results.id }).from(results).where(eq(results.ownerUserId, owner.id));
if (!unprocessed) {
  const track = await createTrack(handle.db, owner.id, { name: "E2E unprocessed basin" });
  await handle.db.insert(results).values({
    ownerUserId: owner.id,
    trackId: track.id,
    vesselId: 1,
    categoryId: 1,
    paceId: 1,
    createdVia: "demo",
    date: "2026-01-10",
    timeOfDay: "10:00:00+01:00",
    startAt: new Date("2026-01-10T09:00:00Z"),
    utcOffsetMin: 60,
    distanceM: 500,
    durationMs: 110_000,
    targetDistanceM: 500,
    status: "failed",
    description: E2E_UNPROCESSED_DESCRIPTION,
  });
}
// A stored result made by processing core 1: the operator's reprocessing run brings it to today's core.
const [olderCoreOwner] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, E2E_OLDER_CORE_OWNER.email));
if (!olderCoreOwner) {
  const user = await createUser(handle.db, E2E_OLDER_CORE_OWNER, { unlimitedExternals: true });
  const track = await createTrack(handle.db, user.id, { name: "E2E older core basin" });
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 4711 }).content, loadKeyring({})));
  const metadata = JSON.stringify({
    distance: 200,
    vessel_id: 1,
    track_id: track.id,
    category_id: 1,
    pace_id: 1,
    athletes: [{ name: "Old", surname: "Core" }],
  });
  const created = await uploadResult(handle.db, {
    user,
    createdVia: "demo",
    keyPairId: null,
    file: { filename: "older-core.svc", bytes },
    metadata,
  });
  await handle.db.update(resultDerived).set({ processingCoreVersion: 1 }).where(eq(resultDerived.resultId, created.id));
}
// A reprocessing run whose function is lost (its event never reached a runner), without progress for an
// hour: e2e/reprocess.spec.ts stops it from the operator page before it starts a run of its own. Only when
// no run is active: there is one run at a time.
const [activeRun] = await handle.db
  .select({ id: reprocessRuns.id })
  .from(reprocessRuns)
  .where(sql`${reprocessRuns.state} in ('queued', 'running')`);
if (!activeRun) {
  const hourAgo = new Date(Date.now() - 60 * 60_000);
  await handle.db.insert(reprocessRuns).values({
    state: "running",
    targetCoreVersion: PROCESSING_CORE_VERSION,
    requestedVia: "cli",
    createdAt: hourAgo,
    startedAt: hourAgo,
    lastProgressAt: hourAgo,
    maxResultId: 0,
    maxTrainingId: 0,
    batchSize: 25,
  });
}
await seedDataApiWorld(handle.db);
await seedWebLogWorld(handle.db);
await seedHealthWebWorld(handle.db);
await handle.close();
console.log("e2e accounts ready");
