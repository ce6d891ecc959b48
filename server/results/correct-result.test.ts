import { randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionOfSubject } from "../access/access";
import { createAthlete } from "../athletes/athletes";
import { gunzipSync } from "node:zlib";
import { getBlob, putBlob } from "../blobs/blob-store";
import { drainEmbeddedRuns } from "../jobs/embedded-runner";
import { replayBlobKey } from "../replay/build-replay-artifact";
import type { DbHandle } from "../db/client";
import { blobs, resultDerived, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { listRecordHistory } from "../records/performance-records";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { PROCESSING_CORE_VERSION } from "../svc/process/version";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { correctResult } from "./correct-result";
import { getResultDetail } from "./result-detail";
import { getStoredAnalysis } from "./result-analysis";
import { uploadResult } from "./upload-result";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let other: SessionUser;
let trackId: number;
let ana: number;
let bea: number;
// A fresh recording per upload: the same file twice from one owner is refused (a repeated upload).
let k2Seed = 7;
const k2File = () => Buffer.from(encodeSvc(simulateSession({ vessel: "K2", distanceM: 200, seed: k2Seed++ }).content, keyring));

beforeAll(async () => {
  handle = await openTestDb();
  coach = await createUser(handle.db, { name: "Coach", email: `fix-${randomUUID()}@test.example`, password: "long enough password" });
  other = await createUser(handle.db, { name: "Other", email: `fix-${randomUUID()}@test.example`, password: "long enough password" });
  trackId = (await createTrack(handle.db, coach.id, { name: "Basin" })).id;
  ana = (await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" })).id;
  bea = (await createAthlete(handle.db, coach.id, { name: "Bea", subscriptionActiveUntil: "2099-01-01" })).id;
});
afterAll(async () => {
  await handle.close();
});

const uploadAsK1 = async () =>
  (
    await uploadResult(
      handle.db,
      {
        user: coach,
        createdVia: "web",
        keyPairId: null,
        file: { filename: "k2.svc", bytes: k2File() },
        metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [ana] }),
      },
      { keyring },
    )
  ).id;

describe("corrections after upload", () => {
  it("reprocesses a K2 file uploaded as K1 from the stored original; crew, records and stale artifacts follow", async () => {
    const id = await uploadAsK1();
    await putBlob(handle.db, { key: `results/${id}/replay-v1.json.gz`, bytes: Buffer.from("old"), contentType: "application/json" });
    const before = await getStoredAnalysis(handle.db, id);
    // As if an older core had made it: the correction's processing stamps today's version.
    await handle.db.update(resultDerived).set({ processingCoreVersion: 1 }).where(eq(resultDerived.resultId, id));
    expect(
      (await listRecordHistory(handle.db, sessionOfSubject(coach.id))).filter((r) => r.resultId === id).map((r) => r.vesselType),
    ).toEqual(["K1"]);

    const outcome = await correctResult(
      handle.db,
      coach,
      id,
      {
        vesselId: 2,
        trackId,
        categoryId: 2,
        paceId: 3,
        crew: [{ athleteId: ana }, { athleteId: bea }],
        competition: "Club trials",
        description: "fixed",
        important: true,
      },
      { keyring },
    );
    expect(outcome).toEqual({ reprocessed: true });
    const detail = await getResultDetail(handle.db, coach.id, id);
    expect(detail.summary).toMatchObject({
      vesselType: "K2",
      categoryId: 2,
      paceId: 3,
      competition: "Club trials",
      description: "fixed",
      important: true,
    });
    expect(detail.crew.map((c) => c.athleteId)).toEqual([ana, bea]);
    const after = await getStoredAnalysis(handle.db, id);
    expect(after!.summary.stroke_count).toBe(before!.summary.stroke_count);
    expect(detail.summary.durationMs).toBe(after!.summary.duration_ms);
    expect(after!.replayBlobKey).toBeNull();
    const [stamped] = await handle.db
      .select({ version: resultDerived.processingCoreVersion })
      .from(resultDerived)
      .where(eq(resultDerived.resultId, id));
    expect(stamped.version).toBe(PROCESSING_CORE_VERSION);
    expect(
      (
        await handle.db
          .select({ key: blobs.key })
          .from(blobs)
          .where(like(blobs.key, `results/${id}/%`))
      ).map((b) => b.key),
    ).toEqual([`results/${id}/original.svc`]);
    // The replay is rebuilt for the corrected boat.
    await drainEmbeddedRuns(handle.db, { retryBackoff: () => 0 });
    const replay = await getBlob(handle.db, replayBlobKey(id));
    expect(JSON.parse(gunzipSync(replay!.bytes).toString()).model_class).toBe("K2");
    // Records are per boat class: the session now counts for K2, no longer for K1.
    expect(
      (await listRecordHistory(handle.db, sessionOfSubject(coach.id))).filter((r) => r.resultId === id).map((r) => r.vesselType),
    ).toEqual(["K2"]);
  });

  it("keeps derived data when only the notes and flags change", async () => {
    const id = await uploadAsK1();
    const [derivedBefore] = await handle.db
      .select({ summary: resultDerived.summary })
      .from(resultDerived)
      .where(eq(resultDerived.resultId, id));
    expect(
      await correctResult(
        handle.db,
        coach,
        id,
        {
          vesselId: 1,
          trackId,
          categoryId: 1,
          paceId: 1,
          crew: [{ athleteId: bea }],
          competition: "",
          description: "easy",
          important: false,
        },
        { keyring },
      ),
    ).toEqual({ reprocessed: false });
    const [derivedAfter] = await handle.db
      .select({ summary: resultDerived.summary })
      .from(resultDerived)
      .where(eq(resultDerived.resultId, id));
    expect(derivedAfter).toEqual(derivedBefore);
    expect((await getResultDetail(handle.db, coach.id, id)).crew.map((c) => c.athleteId)).toEqual([bea]);
  });

  it("applies the upload's rules with their messages, changes nothing on refusal, and hides others' sessions", async () => {
    const id = await uploadAsK1();
    const [row] = await handle.db.select().from(results).where(eq(results.id, id));
    await expect(
      correctResult(handle.db, coach, id, { vesselId: 2, trackId, categoryId: 1, paceId: 1, crew: [{ athleteId: ana }] }, { keyring }),
    ).rejects.toMatchObject({ code: "invalid", message: expect.stringMatching(/athletes must have 2 entries for a K2/) });
    await expect(
      correctResult(
        handle.db,
        coach,
        id,
        { vesselId: 1, trackId: 999_999, categoryId: 1, paceId: 1, crew: [{ athleteId: ana }] },
        { keyring },
      ),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      correctResult(handle.db, other, id, { vesselId: 1, trackId, categoryId: 1, paceId: 1, crew: [{ athleteId: ana }] }, { keyring }),
    ).rejects.toMatchObject({ code: "not_found" });
    const [unchanged] = await handle.db.select().from(results).where(eq(results.id, id));
    expect(unchanged).toEqual(row);
  });
});
