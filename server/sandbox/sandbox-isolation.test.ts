import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparableSessions, personalBests, progressionOf } from "../analytics/cohorts";
import { makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { results, tracks } from "../db/schema";
import { listRecordHistory } from "../records/performance-records";
import { sessionsAboutSubject, type SessionAudience } from "../sessions/session-boundary";
import { createSandbox } from "./sandbox";
import { generateSeason } from "./season";

/**
 * A sandbox person never shows in anyone else's figures (docs/sandbox.md
 * "Isolation"). The hardest case: a real person whose season is identical,
 * effort for effort, to the sandbox's (same generator, same seed), so every
 * sandbox session is comparable to one of theirs. Service-wide benchmarks
 * exclude every account that is not a person (the benchmark cohort's own
 * rule, tested with it).
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("sandbox isolation", () => {
  it("leaves a real person's comparisons, progression, bests and records unchanged", async () => {
    const season = { seed: 31, weeks: 1, sessionsPerWeek: 2 };
    const real = await makeOwnerAndApp(handle.db);
    await generateSeason(handle.db, real.owner, season);
    const audience: SessionAudience = { subjectId: real.owner.id, surface: "data", applicationId: real.application.id };
    const [first] = await handle.db
      .select({ id: results.id })
      .from(results)
      .where(eq(results.ownerUserId, real.owner.id))
      .orderBy(results.startAt)
      .limit(1);
    const figures = async () => ({
      comparable: await comparableSessions(handle.db, audience, first.id, 25),
      progression: await progressionOf(handle.db, audience, first.id),
      bests: await personalBests(handle.db, audience),
      records: await listRecordHistory(handle.db, sessionsAboutSubject(audience)),
    });
    const before = await figures();

    // Another developer's sandbox with the very same season, and the real person's own sandbox too.
    const developer = await makeOwnerAndApp(handle.db);
    const sandbox = await createSandbox(handle.db, developer.owner, developer.application.id, season);
    await createSandbox(handle.db, real.owner, real.application.id, season);
    const sandboxSessions = await handle.db.select({ id: results.id }).from(results).where(eq(results.ownerUserId, sandbox.userId));
    expect(sandboxSessions).toHaveLength(2);

    expect(await figures()).toEqual(before);
    // Its course is its own: not public, so nobody else's track list shows it.
    const sandboxTracks = await handle.db.select({ isPublic: tracks.isPublic }).from(tracks).where(eq(tracks.ownerUserId, sandbox.userId));
    expect(sandboxTracks).toEqual([{ isPublic: false }]);
  }, 120_000);
});
