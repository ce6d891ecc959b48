import { createHash, randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { blobContents, blobs, results } from "../db/schema";
import { openPrivateTestDb } from "../../test/support/test-db";
import { consumeDeviceFetch, requestDeviceFetch } from "../devices/device-jobs";
import { buildExport, type ExportOptions } from "../exports/builders";
import { exportFileResponse } from "../exports/download-response";
import { getExportJobFor, readExportFile, requestExport } from "../exports/export-jobs";
import { deviceFileResponse } from "../http/data-api/operations/devices";
import { drainEmbeddedRuns } from "../jobs/embedded-runner";
import { gzipArtifactResponse } from "../replay/artifact-response";
import { openReplayArtifact } from "../replay/read-replay-artifact";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { blobStore } from "./blob-store";
import { startLocalS3 } from "./local-s3";

/**
 * The deployment configured for S3 (S3_BUCKET … set before anything reads
 * the environment), against a local s3rver: an upload's original, an
 * export, a device copy and a replay artifact are stored as objects, and
 * every HTTP download answers the same bytes as a stream.
 */
const keyring = loadKeyring({});
let localS3: Awaited<ReturnType<typeof startLocalS3>>;
let handle: DbHandle;
let coach: SessionUser;
let sessionId: number;
let original: Buffer;
const drain = () => drainEmbeddedRuns(handle.db, { retryBackoff: () => 0, maxWaitMs: 0 });
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  localS3 = await startLocalS3("svc-downloads-test");
  const s = localS3.settings;
  Object.assign(process.env, {
    S3_BUCKET: s.bucket,
    S3_ENDPOINT: s.endpoint,
    S3_REGION: s.region,
    S3_ACCESS_KEY_ID: s.credentials!.accessKeyId,
    S3_SECRET_ACCESS_KEY: s.credentials!.secretAccessKey,
    S3_FORCE_PATH_STYLE: "1",
  });
  // A database of its own: a drain on the shared one claims other files' runs and theirs claim ours (a replay artifact
  // built by another file's process lands in that process's blob store, not this S3: seen as a null artifact in a full run).
  handle = await openPrivateTestDb();
  coach = await createUser(handle.db, { name: "Coach", email: `coach-${randomUUID()}@test.example`, password: "long enough password" });
  const athlete = await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" });
  const track = await createTrack(handle.db, coach.id, { name: "Basin" });
  original = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 31 }).content, keyring));
  const uploaded = await uploadResult(
    handle.db,
    {
      user: coach,
      createdVia: "web",
      keyPairId: null,
      file: { filename: "s3.svc", bytes: original },
      metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
    },
    { keyring },
  );
  sessionId = uploaded.id;
  await drain();
});
afterAll(async () => {
  await handle?.close();
  await localS3?.stop();
});

it("keeps the deployment's blobs in S3, not in Postgres", async () => {
  expect(blobStore().backend).toBe("s3");
  const [row] = await handle.db
    .select({ data: blobContents.data, size: blobContents.byteSize })
    .from(blobs)
    .innerJoin(blobContents, eq(blobContents.sha256, blobs.sha256))
    .where(eq(blobs.key, `results/${sessionId}/original.svc`));
  expect(row).toEqual({ data: null, size: original.byteLength });
});

it("streams an export download from S3, identical to a direct build", async () => {
  const options: ExportOptions = { format: "pdf-full", athlete: 1, splits: 4, lang: "en", mode: "full", healthAllowed: true };
  const requester = { subjectUserId: coach.id, applicationId: null };
  const { job } = await requestExport(handle.db, { requester, source: { kind: "session", sessionId }, options, idempotency: null });
  await drain();
  const done = await getExportJobFor(handle.db, requester, job.publicId);
  expect(done.state).toBe("succeeded");
  const response = exportFileResponse(await readExportFile(handle.db, done));
  const direct = await buildExport(handle.db, { kind: "session", sessionId }, { userId: coach.id }, options);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(Number(response.headers.get("content-length"))).toBe(direct.bytes.byteLength);
  const body = Buffer.from(await response.arrayBuffer());
  // The PDF embeds no clock (creation date from the session), so the same request gives the same bytes.
  expect(sha(body)).toBe(sha(direct.bytes));
});

it("streams the device file's one download from S3, the original bytes", async () => {
  const [row] = await handle.db.select({ deviceId: results.deviceId }).from(results).where(eq(results.id, sessionId));
  const requester = { subjectUserId: coach.id, applicationId: null };
  const job = await requestDeviceFetch(handle.db, { requester, deviceId: row.deviceId!, filename: "s3.svc" });
  await drain();
  const response = deviceFileResponse(await consumeDeviceFetch(handle.db, requester, job.publicId));
  expect(Number(response.headers.get("content-length"))).toBe(original.byteLength);
  expect(sha(Buffer.from(await response.arrayBuffer()))).toBe(sha(original));
  await expect(consumeDeviceFetch(handle.db, requester, job.publicId)).rejects.toMatchObject({ code: "not_found" });
});

it("streams the replay artifact from S3", async () => {
  const artifact = await openReplayArtifact(handle.db, sessionId);
  expect(artifact).not.toBeNull();
  const response = gzipArtifactResponse(artifact!);
  const body = Buffer.from(await response.arrayBuffer());
  expect(body.byteLength).toBe(Number(response.headers.get("content-length")));
  expect(JSON.parse(gunzipSync(body).toString()).schema).toBe(1);
});
