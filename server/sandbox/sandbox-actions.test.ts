import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiResource } from "../auth/oauth/config";
import { getGrant } from "../auth/oauth/grants";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { deviceJobs, exportJobs, results, trainings, webhookEvents } from "../db/schema";
import { copyOriginalForFetch } from "../devices/device-jobs";
import { buildAndStoreExport, markExportFailed, markExportRunning } from "../exports/export-jobs";
import { processStoredTraining } from "../trainings/process-training";
import { createEndpoint } from "../webhooks/endpoints";
import { webhookEventTypeNames } from "../webhooks/event-types";
import { createSandbox } from "./sandbox";
import { runSandboxAction } from "./sandbox-actions";

/**
 * The portal's sandbox actions (docs/sandbox.md "Actions") do the real thing
 * on the sandbox person's account; the jobs they queue are run here by
 * calling their steps, as the job runner would.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("sandbox actions", () => {
  it("upload, correct, delete, trainings that succeed and fail, exports that complete and fail, a device fetch, a revocation", async () => {
    const db = handle.db;
    const { owner, application } = await makeOwnerAndApp(db);
    const sandbox = await createSandbox(db, owner, application.id, { weeks: 1, sessionsPerWeek: 1 });
    const person = sandbox.userId;
    const act = (action: Parameters<typeof runSandboxAction>[3]) => runSandboxAction(db, owner.id, application.id, action);
    const sessionsOf = () =>
      db
        .select({ id: results.id, description: results.description, important: results.important, app: results.createdByApplicationId })
        .from(results)
        .where(eq(results.ownerUserId, person));

    await act("upload_session");
    const uploaded = await sessionsOf();
    expect(uploaded).toHaveLength(2);
    const newest = uploaded.find((s) => s.description === "Uploaded from the sandbox")!;
    expect(newest.app).toBe(application.id);

    await act("correct_session");
    const [corrected] = (await sessionsOf()).filter((s) => s.id === newest.id);
    expect(corrected.description).toMatch(/^Corrected /);
    expect(corrected.important).toBe(true);

    await act("delete_session");
    expect((await sessionsOf()).map((s) => s.id)).not.toContain(newest.id);

    await act("upload_training");
    await act("upload_failing_training");
    const queued = await db
      .select({ id: trainings.id, title: trainings.title })
      .from(trainings)
      .where(and(eq(trainings.ownerUserId, person), eq(trainings.status, "queued")));
    expect(queued).toHaveLength(2);
    const outcomes = Object.fromEntries(
      await Promise.all(queued.map(async (t) => [t.title, (await processStoredTraining(db, t.id)).status])),
    );
    expect(outcomes).toEqual({ "3 × 250 m from the sandbox": "ready", "A damaged file from the sandbox": "failed" });

    await act("request_export");
    const [good] = await db.select().from(exportJobs).where(eq(exportJobs.subjectUserId, person));
    expect(good.applicationId).toBe(application.id);
    await markExportRunning(db, good.id);
    await expect(buildAndStoreExport(db, good.id)).resolves.toMatchObject({ blobKey: `exports/${good.publicId}` });

    const remaining = (await sessionsOf()).length;
    await act("request_failing_export");
    expect(await sessionsOf()).toHaveLength(remaining - 1);
    const [bad] = await db
      .select()
      .from(exportJobs)
      .where(and(eq(exportJobs.subjectUserId, person), eq(exportJobs.state, "queued")));
    await markExportRunning(db, bad.id);
    await expect(buildAndStoreExport(db, bad.id)).rejects.toMatchObject({ code: "not_found" });

    await act("upload_session");
    await act("fetch_device_file");
    const [fetch] = await db.select().from(deviceJobs).where(eq(deviceJobs.subjectUserId, person));
    expect(fetch).toMatchObject({ kind: "fetch", applicationId: application.id });
    await expect(copyOriginalForFetch(db, fetch.id)).resolves.toMatchObject({ byteSize: expect.any(Number) });

    // Revoking needs an authorization first; then the grant is revoked, and a second revocation has nothing left to revoke.
    await expect(act("revoke_authorization")).rejects.toMatchObject({ code: "conflict" });
    const { grantId } = await issueAccessToken(db, {
      userId: person,
      applicationId: application.id,
      clientId: application.clientId,
      scopes: ["openid"],
      audience: apiResource(),
    });
    await act("revoke_authorization");
    expect((await getGrant(db, grantId))?.revokedAt).toBeInstanceOf(Date);

    // Nothing happened to the owner's own account.
    expect(await db.select().from(results).where(eq(results.ownerUserId, owner.id))).toEqual([]);
  }, 120_000);

  it("an application the sandbox person authorized hears of every action through its webhook event type", async () => {
    const db = handle.db;
    const scopes = ["openid", "sessions:read", "trainings:read", "exports:create", "devices:files"];
    const { owner, application } = await makeOwnerAndApp(db, { scopes });
    const sandbox = await createSandbox(db, owner, application.id, { weeks: 1, sessionsPerWeek: 1 });
    const person = sandbox.userId;
    // No delivery is attempted here: the events and their queued deliveries are what the actions write.
    await createEndpoint(db, owner.id, application.id, { url: "http://127.0.0.1:9/hooks", eventTypes: [...webhookEventTypeNames] });
    await issueAccessToken(db, {
      userId: person,
      applicationId: application.id,
      clientId: application.clientId,
      scopes,
      audience: apiResource(),
      lifetimeSeconds: 30 * 24 * 3600,
    });
    const act = (action: Parameters<typeof runSandboxAction>[3]) => runSandboxAction(db, owner.id, application.id, action);

    await act("upload_session");
    await act("correct_session");
    await act("delete_session");
    await act("upload_training");
    await act("upload_failing_training");
    for (const t of await db
      .select({ id: trainings.id })
      .from(trainings)
      .where(and(eq(trainings.ownerUserId, person), eq(trainings.status, "queued"))))
      await processStoredTraining(db, t.id);
    await act("correct_training");
    await act("request_export");
    const [good] = await db.select().from(exportJobs).where(eq(exportJobs.subjectUserId, person));
    await markExportRunning(db, good.id);
    await buildAndStoreExport(db, good.id);
    await act("request_failing_export");
    const [bad] = await db
      .select()
      .from(exportJobs)
      .where(and(eq(exportJobs.subjectUserId, person), eq(exportJobs.state, "queued")));
    await markExportRunning(db, bad.id);
    // As the job runner does when the build fails for good.
    await buildAndStoreExport(db, bad.id).catch((error: Error) => markExportFailed(db, bad.id, error.message));
    // The failing export took the newest session with it; the fetch needs a stored original.
    await act("upload_session");
    await act("fetch_device_file");
    const [fetch] = await db.select().from(deviceJobs).where(eq(deviceJobs.subjectUserId, person));
    await copyOriginalForFetch(db, fetch.id);
    await act("revoke_authorization");

    const events = await db
      .select({ type: webhookEvents.type, userId: webhookEvents.userId })
      .from(webhookEvents)
      .where(eq(webhookEvents.applicationId, application.id))
      .orderBy(webhookEvents.id);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(webhookEventTypeNames));
    expect(events.every((e) => e.userId === person)).toBe(true);
    expect(events.at(-1)!.type).toBe("authorization.revoked");
  }, 120_000);
});
