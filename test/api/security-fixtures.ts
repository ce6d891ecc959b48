import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { replayEmbeds, results } from "@/server/db/schema";
import { createTeam } from "@/server/teams/teams";
import { createTrack } from "@/server/tracks/tracks";
import { DATA_WORLD as W } from "../../e2e/data-api-world";
import type { ApiHarness, ApiName } from "./harness";
import { createKeyPairToken, issueToken } from "./harness/credentials";
import { loadDataWorld, tokenSet, type DataWorld, type TokenSet } from "./data-world";

/**
 * Concrete requests for every secured operation of both APIs, for the shared
 * security matrix (security-matrix.ts): `own`, a request the subject may make
 * (its documented status proves the refusals are the credential's doing),
 * and, where the operation names a row, `foreign` (the same request naming
 * another person's row) and `absent` (naming no row), which must answer the
 * same 404. `noForeign` says why an operation has no such case.
 */
export interface MatrixRequest {
  path: string;
  body?: unknown;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
}
export interface OperationFixture {
  /** `freshToken`: the call spends its token (DELETE /authorization), so it gets one of another application. */
  own: MatrixRequest & { status: number; freshToken?: boolean };
  foreign?: MatrixRequest;
  absent?: MatrixRequest;
  noForeign?: string;
}
export type FixtureKey = `${ApiName} ${string} ${string}`;

/**
 * Every secured operation of both documents, by API, method and template:
 * one test each. Written out so that tests exist before the documents are
 * loaded; security.test.ts checks this list against the served documents.
 */
export const MATRIX_OPERATIONS: FixtureKey[] = [
  "data get /me",
  "data get /authorization",
  "data delete /authorization",
  "data get /athlete",
  "data get /sessions",
  "data get /sessions/{session_id}",
  "data get /sessions/{session_id}/summary",
  "data get /sessions/{session_id}/series",
  "data get /sessions/{session_id}/strokes",
  "data get /sessions/{session_id}/splits",
  "data post /sessions/compare",
  "data get /trainings",
  "data get /trainings/{training_id}",
  "data get /trainings/{training_id}/summary",
  "data get /trainings/{training_id}/timeline",
  "data get /trainings/{training_id}/sets/{set_id}/series",
  "data get /trainings/{training_id}/sets/{set_id}/strokes",
  "data get /trainings/{training_id}/sets/{set_id}/splits",
  "data post /trainings/{training_id}/compare",
  "data get /sessions/{session_id}/analytics/{analysis}",
  "data get /analytics/comparable-sessions",
  "data get /analytics/progression",
  "data get /analytics/personal-bests",
  "data get /analytics/benchmarks",
  "data get /tracks",
  "data get /tracks/{track_id}",
  "data get /roster/athletes",
  "data get /roster/athletes/{athlete_id}",
  "data get /teams",
  "data get /teams/{team_id}",
  "data get /equipment/{kind}",
  "data get /equipment/{kind}/{item_id}",
  "data get /catalogues/{kind}",
  "data get /records",
  "data get /health/weights",
  "data get /health/lactate",
  "data get /devices",
  "data get /devices/{device_id}",
  "data get /devices/{device_id}/files",
  "data post /devices/{device_id}/files/{filename}/fetch",
  "data get /devices/jobs/{job_id}",
  "data post /devices/jobs/{job_id}/download",
  "data post /svcsim/embeds",
  "data delete /svcsim/embeds/{embed_id}",
  "data post /sessions/{session_id}/exports",
  "data post /trainings/{training_id}/exports",
  "data get /exports/{job_id}",
  "data get /exports/{job_id}/download",
  "data get /workout-templates",
  "data get /workout-templates/{template_id}",
  "data post /workout-templates/import",
  "results get /results",
  "results post /results",
  "results get /results/{id}",
  "results delete /results/{id}",
  "results get /results/{id}/pdf",
  "results get /vessels",
  "results get /vessels/{id}",
  "results get /categories",
  "results get /categories/{id}",
  "results get /paces",
  "results get /paces/{id}",
  "results get /tracks",
  "results get /tracks/{id}",
  "results get /athletes",
  "results get /athletes/{id}",
];

export const ABSENT_ID = 2_147_483_647;
export const EMBED_ORIGIN = "https://embed.api-test.example";

export interface MatrixWorld {
  world: DataWorld;
  /** Anna's tokens; her data application has EMBED_ORIGIN approved. */
  anna: TokenSet;
  /** Olaf's data-surface token. */
  olafToken: string;
  /** Anna's key pair, her bare public key, and a revoked key pair of hers. */
  keyPair: string;
  publicKey: string;
  revokedKeyPair: string;
  fixtures: Record<FixtureKey, OperationFixture>;
}

const same = (foreign: string, absent: string, extra: Omit<MatrixRequest, "path"> = {}) => ({
  foreign: { path: foreign, ...extra },
  absent: { path: absent, ...extra },
});

/** A throwaway embed row of a person's application (revoking one is the DELETE's own case). */
async function embedRow(db: Db, subjectUserId: number, application: { id: number; clientId: string }, sessionId: number) {
  const { grantId } = await issueToken(db, { userId: subjectUserId, application, scopes: ["sessions:read", "svcsim:embed"] });
  const [row] = await db
    .insert(replayEmbeds)
    .values({
      applicationId: application.id,
      grantId,
      subjectUserId,
      origin: EMBED_ORIGIN,
      sessionIds: [sessionId],
      launchTokenHash: randomBytes(32).toString("hex"),
      launchExpiresAt: new Date(Date.now() + 60_000),
    })
    .returning({ id: replayEmbeds.id });
  return row.id;
}

/** A result of Anna's that the DELETE case may remove (a failed upload, as the world seeds one). */
async function disposableResult(db: Db, ownerUserId: number, trackId: number) {
  const [row] = await db
    .insert(results)
    .values({
      ownerUserId,
      trackId,
      vesselId: 1,
      categoryId: 1,
      paceId: 1,
      createdVia: "demo",
      date: "2026-01-13",
      timeOfDay: "09:00:00+01:00",
      startAt: new Date("2026-01-13T08:00:00Z"),
      utcOffsetMin: 60,
      distanceM: 500,
      durationMs: 120_000,
      targetDistanceM: 500,
      status: "failed",
      description: "disposable",
    })
    .returning({ id: results.id });
  return row.id;
}

export async function buildMatrixWorld(api: ApiHarness): Promise<MatrixWorld> {
  const db = api.db;
  const world = await loadDataWorld(db);
  const { anna: a, olaf: o } = world;
  const anna = await tokenSet(db, a.userId, { embedOrigin: EMBED_ORIGIN });
  const olafSet = await tokenSet(db, o.userId, { embedOrigin: EMBED_ORIGIN });
  const olafToken = olafSet.full;
  const keyPair = await createKeyPairToken(db, a.userId);
  const revoked = await createKeyPairToken(db, a.userId);
  const { revokeKeyPair } = await import("@/server/keys/key-pairs");
  await revokeKeyPair(db, a.userId, revoked.keyPairId);

  // Rows of Olaf's that nothing of Anna's reaches (his seeded course names sessions Anna paddled, so it is no secret).
  const olafTrack = (await createTrack(db, o.userId, { name: "Olaf hidden basin" })).id;
  const olafTeam = (await createTeam(db, o.userId, { name: "Olaf private club" })).id;
  const S = world.sessionBySeed[W.seeds.annaK1];
  const S2 = world.sessionBySeed[W.seeds.annaC1Ben];
  const OS = world.sessionBySeed[W.seeds.olafK1];
  const T = world.trainingByTitle[W.trainings.annaTemplated.title];
  const OT = world.trainingByTitle[W.trainings.olaf.title];
  const [set1, set2] = world.workSets[T];
  const oset = world.workSets[OT][0];
  const deviceOf = async (sessionId: number) =>
    (await db.select({ id: results.deviceId, filename: results.originalFilename }).from(results).where(eq(results.id, sessionId)))[0];
  const dev = await deviceOf(S);
  const odev = await deviceOf(OS);
  const fetchPath = (d: { id: number | null; filename: string | null }) =>
    `/devices/${d.id}/files/${encodeURIComponent(d.filename!)}/fetch`;
  const jobOf = async (token: string, path: string, body?: unknown) =>
    (await api.call("POST", path, { token, body })).body.data.job_id as string;
  const ownDeviceJob = await jobOf(anna.full, fetchPath(dev));
  const olafDeviceJob = await jobOf(olafToken, fetchPath(odev));
  const ownExport = await jobOf(anna.full, `/sessions/${S}/exports`, { format: "json" });
  const olafExport = await jobOf(olafToken, `/sessions/${OS}/exports`, { format: "json" });
  const ownEmbed = await embedRow(db, a.userId, anna.app, S);
  const olafEmbed = await embedRow(db, o.userId, olafSet.app, OS);
  const disposable = await disposableResult(db, a.userId, a.trackIds[0]);
  const absentJob = "job_" + "A".repeat(22);
  const template = JSON.stringify({ version: 1, steps: [{ kind: "work", duration_s: 60 }] });

  const fixtures: Record<FixtureKey, OperationFixture> = {
    "data get /me": { own: { path: "/me", status: 200 }, noForeign: "names no row: the subject's own identity" },
    "data get /authorization": { own: { path: "/authorization", status: 200 }, noForeign: "names no row: the token's own grant" },
    "data delete /authorization": {
      own: { path: "/authorization", status: 204, freshToken: true },
      noForeign: "names no row: the token's own grant",
    },
    "data get /athlete": { own: { path: "/athlete", status: 200 }, noForeign: "names no row: the subject's own profile" },
    "data get /sessions": {
      own: { path: "/sessions", status: 200 },
      foreign: { path: "/sessions", query: { athlete_id: o.athleteId } },
      absent: { path: "/sessions", query: { athlete_id: ABSENT_ID } },
    },
    "data get /sessions/{session_id}": {
      own: { path: `/sessions/${S}`, status: 200 },
      ...same(`/sessions/${OS}`, `/sessions/${ABSENT_ID}`),
    },
    ...Object.fromEntries(
      ["summary", "series", "strokes", "splits"].map((part) => [
        `data get /sessions/{session_id}/${part}`,
        { own: { path: `/sessions/${S}/${part}`, status: 200 }, ...same(`/sessions/${OS}/${part}`, `/sessions/${ABSENT_ID}/${part}`) },
      ]),
    ),
    "data post /sessions/compare": {
      own: { path: "/sessions/compare", body: { session_ids: [S, S2] }, status: 200 },
      foreign: { path: "/sessions/compare", body: { session_ids: [S, OS] } },
      absent: { path: "/sessions/compare", body: { session_ids: [S, ABSENT_ID] } },
    },
    "data get /trainings": {
      own: { path: "/trainings", status: 200 },
      noForeign: "a list of the subject's own trainings, with no row filter",
    },
    "data get /trainings/{training_id}": {
      own: { path: `/trainings/${T}`, status: 200 },
      ...same(`/trainings/${OT}`, `/trainings/${ABSENT_ID}`),
    },
    ...Object.fromEntries(
      ["summary", "timeline"].map((part) => [
        `data get /trainings/{training_id}/${part}`,
        { own: { path: `/trainings/${T}/${part}`, status: 200 }, ...same(`/trainings/${OT}/${part}`, `/trainings/${ABSENT_ID}/${part}`) },
      ]),
    ),
    ...Object.fromEntries(
      ["series", "strokes", "splits"].map((part) => [
        `data get /trainings/{training_id}/sets/{set_id}/${part}`,
        {
          own: { path: `/trainings/${T}/sets/${set1}/${part}`, status: 200 },
          ...same(`/trainings/${OT}/sets/${oset}/${part}`, `/trainings/${ABSENT_ID}/sets/${ABSENT_ID}/${part}`),
        },
      ]),
    ),
    "data post /trainings/{training_id}/compare": {
      own: { path: `/trainings/${T}/compare`, body: { set_ids: [set1, set2] }, status: 200 },
      ...same(`/trainings/${OT}/compare`, `/trainings/${ABSENT_ID}/compare`, { body: { set_ids: [set1, set2] } }),
    },
    "data get /sessions/{session_id}/analytics/{analysis}": {
      own: { path: `/sessions/${S}/analytics/pacing`, status: 200 },
      ...same(`/sessions/${OS}/analytics/pacing`, `/sessions/${ABSENT_ID}/analytics/pacing`),
    },
    "data get /analytics/comparable-sessions": {
      own: { path: "/analytics/comparable-sessions", query: { session_id: S }, status: 200 },
      foreign: { path: "/analytics/comparable-sessions", query: { session_id: OS } },
      absent: { path: "/analytics/comparable-sessions", query: { session_id: ABSENT_ID } },
    },
    "data get /analytics/progression": {
      own: { path: "/analytics/progression", query: { session_id: S }, status: 200 },
      foreign: { path: "/analytics/progression", query: { session_id: OS } },
      absent: { path: "/analytics/progression", query: { session_id: ABSENT_ID } },
    },
    "data get /analytics/personal-bests": {
      own: { path: "/analytics/personal-bests", status: 200 },
      noForeign: "the subject's own sessions, aggregated",
    },
    "data get /analytics/benchmarks": {
      own: { path: "/analytics/benchmarks", query: { session_id: S }, status: 200 },
      foreign: { path: "/analytics/benchmarks", query: { session_id: OS } },
      absent: { path: "/analytics/benchmarks", query: { session_id: ABSENT_ID } },
    },
    "data get /tracks": { own: { path: "/tracks", status: 200 }, noForeign: "a list of the courses the subject may read" },
    "data get /tracks/{track_id}": {
      own: { path: `/tracks/${a.trackIds[0]}`, status: 200 },
      ...same(`/tracks/${olafTrack}`, `/tracks/${ABSENT_ID}`),
    },
    "data get /roster/athletes": { own: { path: "/roster/athletes", status: 200 }, noForeign: "a list of the subject's own roster" },
    "data get /roster/athletes/{athlete_id}": {
      own: { path: `/roster/athletes/${world.benAthleteId}`, status: 200 },
      ...same(`/roster/athletes/${o.athleteId}`, `/roster/athletes/${ABSENT_ID}`),
    },
    "data get /teams": { own: { path: "/teams", status: 200 }, noForeign: "a list of the subject's own teams" },
    "data get /teams/{team_id}": {
      own: { path: `/teams/${a.teamIds[0]}`, status: 200 },
      ...same(`/teams/${olafTeam}`, `/teams/${ABSENT_ID}`),
    },
    "data get /equipment/{kind}": { own: { path: "/equipment/vessels", status: 200 }, noForeign: "a list of the subject's own equipment" },
    "data get /equipment/{kind}/{item_id}": {
      own: { path: `/equipment/vessels/${a.vesselIds[0]}`, status: 200 },
      ...same(`/equipment/vessels/${o.vesselIds[0]}`, `/equipment/vessels/${ABSENT_ID}`),
    },
    "data get /catalogues/{kind}": { own: { path: "/catalogues/boats", status: 200 }, noForeign: "public reference catalogues" },
    "data get /records": { own: { path: "/records", status: 200 }, noForeign: "the subject's own records" },
    "data get /health/weights": { own: { path: "/health/weights", status: 200 }, noForeign: "the subject's own health rows" },
    "data get /health/lactate": { own: { path: "/health/lactate", status: 200 }, noForeign: "the subject's own health rows" },
    "data get /devices": { own: { path: "/devices", status: 200 }, noForeign: "a list of the subject's own devices" },
    "data get /devices/{device_id}": {
      own: { path: `/devices/${dev.id}`, status: 200 },
      ...same(`/devices/${odev.id}`, `/devices/${ABSENT_ID}`),
    },
    "data get /devices/{device_id}/files": {
      own: { path: `/devices/${dev.id}/files`, status: 200 },
      ...same(`/devices/${odev.id}/files`, `/devices/${ABSENT_ID}/files`),
    },
    "data post /devices/{device_id}/files/{filename}/fetch": {
      own: { path: fetchPath(dev), status: 202 },
      ...same(fetchPath(odev), fetchPath({ id: ABSENT_ID, filename: odev.filename })),
    },
    "data get /devices/jobs/{job_id}": {
      own: { path: `/devices/jobs/${ownDeviceJob}`, status: 200 },
      ...same(`/devices/jobs/${olafDeviceJob}`, `/devices/jobs/${absentJob}`),
    },
    "data post /devices/jobs/{job_id}/download": {
      own: { path: `/devices/jobs/${ownDeviceJob}/download`, status: 404 },
      ...same(`/devices/jobs/${olafDeviceJob}/download`, `/devices/jobs/${absentJob}/download`),
    },
    "data post /svcsim/embeds": {
      own: { path: "/svcsim/embeds", body: { session_ids: [S], origin: EMBED_ORIGIN }, status: 201 },
      foreign: { path: "/svcsim/embeds", body: { session_ids: [OS], origin: EMBED_ORIGIN } },
      absent: { path: "/svcsim/embeds", body: { session_ids: [ABSENT_ID], origin: EMBED_ORIGIN } },
    },
    "data delete /svcsim/embeds/{embed_id}": {
      own: { path: `/svcsim/embeds/${ownEmbed}`, status: 204 },
      ...same(`/svcsim/embeds/${olafEmbed}`, `/svcsim/embeds/${ABSENT_ID}`),
    },
    "data post /sessions/{session_id}/exports": {
      own: { path: `/sessions/${S}/exports`, body: { format: "json" }, status: 202 },
      ...same(`/sessions/${OS}/exports`, `/sessions/${ABSENT_ID}/exports`, { body: { format: "json" } }),
    },
    "data post /trainings/{training_id}/exports": {
      own: { path: `/trainings/${T}/exports`, body: { format: "json" }, status: 202 },
      ...same(`/trainings/${OT}/exports`, `/trainings/${ABSENT_ID}/exports`, { body: { format: "json" } }),
    },
    "data get /exports/{job_id}": {
      own: { path: `/exports/${ownExport}`, status: 200 },
      ...same(`/exports/${olafExport}`, `/exports/${absentJob}`),
    },
    "data get /exports/{job_id}/download": {
      own: { path: `/exports/${ownExport}/download`, status: 404 },
      ...same(`/exports/${olafExport}/download`, `/exports/${absentJob}/download`),
    },
    "data get /workout-templates": { own: { path: "/workout-templates", status: 200 }, noForeign: "a list of the subject's own templates" },
    "data get /workout-templates/{template_id}": {
      own: { path: `/workout-templates/${a.templateIds[0]}`, status: 200 },
      ...same(`/workout-templates/${o.templateIds[0]}`, `/workout-templates/${ABSENT_ID}`),
    },
    "data post /workout-templates/import": {
      own: { path: "/workout-templates/import", body: template, headers: { "content-type": "application/json" }, status: 200 },
      noForeign: "inspects the body it is sent; names no row",
    },

    "results get /results": { own: { path: "/results", status: 200 }, noForeign: "a list of the key owner's results" },
    "results post /results": {
      own: { path: "/results", status: 400 },
      noForeign: "creates a row; its cases are the upload's (results-tests)",
    },
    "results get /results/{id}": { own: { path: `/results/${S}`, status: 200 }, ...same(`/results/${OS}`, `/results/${ABSENT_ID}`) },
    "results delete /results/{id}": {
      own: { path: `/results/${disposable}`, status: 200 },
      ...same(`/results/${OS}`, `/results/${ABSENT_ID}`),
    },
    "results get /results/{id}/pdf": {
      own: { path: `/results/${S}/pdf`, status: 200 },
      ...same(`/results/${OS}/pdf`, `/results/${ABSENT_ID}/pdf`),
    },
    ...Object.fromEntries(
      ["vessels", "categories", "paces"].flatMap((table) => [
        [`results get /${table}`, { own: { path: `/${table}`, status: 200 }, noForeign: "a public reference table" }],
        [`results get /${table}/{id}`, { own: { path: `/${table}/1`, status: 200 }, noForeign: "a public reference table" }],
      ]),
    ),
    "results get /tracks": { own: { path: "/tracks", status: 200 }, noForeign: "a list of the courses the key owner may read" },
    "results get /tracks/{id}": {
      own: { path: `/tracks/${a.trackIds[0]}`, status: 200 },
      ...same(`/tracks/${olafTrack}`, `/tracks/${ABSENT_ID}`),
    },
    "results get /athletes": { own: { path: "/athletes", status: 200 }, noForeign: "a list of the key owner's athletes" },
    "results get /athletes/{id}": {
      own: { path: `/athletes/${world.benAthleteId}`, status: 200 },
      ...same(`/athletes/${o.athleteId}`, `/athletes/${ABSENT_ID}`),
    },
  };
  return { world, anna, olafToken, keyPair: keyPair.token, publicKey: keyPair.publicKey, revokedKeyPair: revoked.token, fixtures };
}
