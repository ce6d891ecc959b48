import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import {
  oauthApplicationOrigins,
  athletes,
  devices,
  equipmentPaddles,
  equipmentVessels,
  results,
  teams,
  tracks,
  trainingSets,
  trainings,
  users,
  workoutTemplates,
} from "@/server/db/schema";
import type { Scope } from "@/server/auth/oauth/scopes";
import { drainEmbeddedRuns } from "@/server/jobs/embedded-runner";
import { reviewOrigin } from "@/server/applications/application-review";
import { DATA_WORLD as W } from "../../e2e/data-api-world";
import { seedDataApiWorld } from "../../scripts/e2e-seed-data-api";
import { createOAuthApplication, issueToken, revokeToken, tokenScopesOfSurface, type Application } from "./harness/credentials";

/**
 * The Data API's test world (e2e/data-api-world.ts: Anna and Olaf, whose
 * sessions, crews, health rows, devices and equipment cross), seeded by the
 * seed the e2e server uses, once per template database (harness/database.ts),
 * and the ids of its rows, read back from the database.
 */
export const DATA_WORLD_SEED = {
  name: "dataworld",
  // Then the background runs the uploads queued (replay artifacts), as the e2e server works them after its seed.
  run: async (db: Db) => {
    await seedDataApiWorld(db);
    await drainEmbeddedRuns(db, { maxWaitMs: 0 });
  },
  // The seed goes through the product's upload and processing code: any change under server/ makes a new template.
  sources: ["scripts/e2e-seed-data-api.ts", "e2e/data-api-world.ts", "server"],
};

export interface WorldPerson {
  userId: number;
  /** The person's own athlete row. */
  athleteId: number;
  sessionIds: number[];
  trainingIds: number[];
  trackIds: number[];
  templateIds: number[];
  deviceIds: number[];
  vesselIds: number[];
  paddleIds: number[];
  teamIds: number[];
}

export interface DataWorld {
  anna: WorldPerson;
  olaf: WorldPerson;
  /** Ben: managed by Anna, no account. */
  benAthleteId: number;
  /** Session id by simulator seed (e2e/data-api-world.ts seeds). */
  sessionBySeed: Record<number, number>;
  /** Training id by title. */
  trainingByTitle: Record<string, number>;
  /** The work sets of each training, in order. */
  workSets: Record<number, number[]>;
}

async function personOf(db: Db, email: string): Promise<WorldPerson> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const ids = async <T extends { id: number }>(rows: Promise<T[]>) => (await rows).map((r) => r.id);
  const [self] = await db
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(eq(athletes.ownerUserId, user.id), eq(athletes.userId, user.id)));
  return {
    userId: user.id,
    athleteId: self.id,
    sessionIds: await ids(db.select({ id: results.id }).from(results).where(eq(results.ownerUserId, user.id)).orderBy(asc(results.id))),
    trainingIds: await ids(
      db.select({ id: trainings.id }).from(trainings).where(eq(trainings.ownerUserId, user.id)).orderBy(asc(trainings.id)),
    ),
    trackIds: await ids(db.select({ id: tracks.id }).from(tracks).where(eq(tracks.ownerUserId, user.id)).orderBy(asc(tracks.id))),
    templateIds: await ids(
      db
        .select({ id: workoutTemplates.id })
        .from(workoutTemplates)
        .where(eq(workoutTemplates.ownerUserId, user.id))
        .orderBy(asc(workoutTemplates.id)),
    ),
    deviceIds: await ids(db.select({ id: devices.id }).from(devices).where(eq(devices.ownerUserId, user.id)).orderBy(asc(devices.id))),
    vesselIds: await ids(
      db
        .select({ id: equipmentVessels.id })
        .from(equipmentVessels)
        .where(eq(equipmentVessels.ownerUserId, user.id))
        .orderBy(asc(equipmentVessels.id)),
    ),
    paddleIds: await ids(
      db
        .select({ id: equipmentPaddles.id })
        .from(equipmentPaddles)
        .where(eq(equipmentPaddles.ownerUserId, user.id))
        .orderBy(asc(equipmentPaddles.id)),
    ),
    teamIds: await ids(db.select({ id: teams.id }).from(teams).where(eq(teams.ownerUserId, user.id)).orderBy(asc(teams.id))),
  };
}

export async function loadDataWorld(db: Db): Promise<DataWorld> {
  const anna = await personOf(db, W.anna.email);
  const olaf = await personOf(db, W.olaf.email);
  const [ben] = await db
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(eq(athletes.ownerUserId, anna.userId), eq(athletes.surname, W.ben.surname)));
  const sessions = await db.select({ id: results.id, filename: results.originalFilename }).from(results);
  const sessionBySeed = Object.fromEntries(
    sessions.filter((s) => s.filename?.startsWith("world-")).map((s) => [Number(/world-(\d+)/.exec(s.filename!)![1]), s.id]),
  );
  const trainingRows = await db.select({ id: trainings.id, title: trainings.title }).from(trainings);
  const sets = await db
    .select({ id: trainingSets.id, trainingId: trainingSets.trainingId, kind: trainingSets.kind })
    .from(trainingSets)
    .orderBy(asc(trainingSets.id));
  const workSets: Record<number, number[]> = {};
  for (const set of sets) if (set.kind === "work") (workSets[set.trainingId] ??= []).push(set.id);
  return {
    anna,
    olaf,
    benAthleteId: ben.id,
    sessionBySeed,
    trainingByTitle: Object.fromEntries(trainingRows.map((t) => [t.title, t.id])),
    workSets,
  };
}

/** One person's tokens for the common cases (e2e/data-api-helpers.ts TokenSet, made without the consent screens). */
export interface TokenSet {
  /** Every data-surface scope. */
  full: string;
  /** The data application of `full`. */
  app: Application;
  /** Only openid: lacks every API scope. */
  openidOnly: string;
  /** Only sessions:read: lacks openid (for the identity operations). */
  noOpenid: string;
  /** Every scope of the partner surface (approved application). */
  partner: string;
  /** Every scope of the session surface. */
  session: string;
  /** Its grant was revoked. */
  revoked: string;
  /** Expired a minute ago; its grant lives. */
  expired: string;
  /** A live token for the userinfo endpoint only (no audience, as oidc-provider issues one): another audience. */
  userinfoOnly: string;
}

/** `embedOrigin`: an origin approved for the data application, for replay embeds. */
export async function tokenSet(db: Db, userId: number, options: { embedOrigin?: string } = {}): Promise<TokenSet> {
  const app = await createOAuthApplication(db, userId, { embedOrigins: options.embedOrigin ? [options.embedOrigin] : [] });
  if (options.embedOrigin) await approveOrigins(db, app.id);
  const all = tokenScopesOfSurface("data");
  const issue = async (
    scopes: Scope[],
    extra: { application?: Application; audience?: string | null; tokenLifetimeSeconds?: number } = {},
  ) =>
    issueToken(db, {
      userId,
      application: extra.application ?? app,
      scopes,
      audience: extra.audience,
      tokenLifetimeSeconds: extra.tokenLifetimeSeconds,
    });
  const partnerApp = await createOAuthApplication(db, userId, { surface: "partner" });
  const sessionApp = await createOAuthApplication(db, userId, { surface: "session" });
  const revoked = await issue(all);
  await revokeToken(db, revoked);
  return {
    full: (await issue(all)).token,
    app,
    openidOnly: (await issue(["openid"])).token,
    noOpenid: (await issue(["sessions:read"])).token,
    partner: (await issue(tokenScopesOfSurface("partner"), { application: partnerApp })).token,
    session: (await issue(tokenScopesOfSurface("session"), { application: sessionApp })).token,
    revoked: revoked.token,
    expired: (await issue(all, { tokenLifetimeSeconds: -60 })).token,
    userinfoOnly: (await issue(["openid", "profile"], { audience: null })).token,
  };
}

/** Approves every origin the application registered, as an operator does. */
async function approveOrigins(db: Db, applicationId: number) {
  const origins = await db
    .select({ id: oauthApplicationOrigins.id })
    .from(oauthApplicationOrigins)
    .where(eq(oauthApplicationOrigins.applicationId, applicationId));
  for (const origin of origins) await reviewOrigin(db, { applicationId, originId: origin.id, decision: "approved" });
}
