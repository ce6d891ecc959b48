import { getAccessibleAthleteSummary, listAccessibleAthletesAfter } from "../../../athletes/paged-athletes";
import { getTeamRoster, listAccessibleTeamsAfter } from "../../../teams/team-roster";
import { getAccessibleTrackCourse, listAccessibleTrackCourses } from "../../../tracks/paged-tracks";
import { defineOperation, pathId } from "../define-operation";
import type { KeysetPosition } from "../../../contract/keyset";
import { keysetPage } from "../pagination";
import {
  serializeRosterAthlete,
  serializeTeam,
  serializeTeamListItem,
  serializeTrack,
  ZRosterAthlete,
  ZTeam,
  ZTeamListItem,
  ZTrack,
} from "../../../teams/roster-wire";

/**
 * Roster, tracks and teams (data-api.md "Roster, tracks, teams"): data
 * surface only, read-only, under the same access rules as the web app
 * (docs/access.md). Lists are keysets on primary keys.
 */
const DATA_ONLY = ["data"] as const;
const afterId = (after: KeysetPosition | null) => (after ? Number(after[0]) : null);
const byId = (row: { id: number }): KeysetPosition => [row.id];

/** Also a results-API path: app/api/v1/tracks/route.ts lets the credential decide. */
export const dataApiListTracks = defineOperation({
  method: "get",
  path: "/tracks",
  operationId: "list_tracks",
  summary: "Tracks the subject can use: their own, public ones and those shared with their teams",
  tag: "Roster",
  scopes: ["sessions:read"],
  surfaces: DATA_ONLY,
  paged: true,
  response: ZTrack,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listAccessibleTrackCourses(ctx.db, ctx.subjectId, { afterId: afterId(after), take }),
      byId,
    );
    return { data: page.rows.map(serializeTrack), meta: page.meta };
  },
});

/** Also a results-API path (app/api/v1/tracks/[track_id]/route.ts). */
export const dataApiGetTrack = defineOperation({
  method: "get",
  path: "/tracks/{track_id}",
  operationId: "get_track",
  summary: "One track the subject can use",
  tag: "Roster",
  scopes: ["sessions:read"],
  surfaces: DATA_ONLY,
  pathParams: { track_id: pathId("track_id").describe("track identifier") },
  response: ZTrack,
  handler: async (ctx, { params }) => ({ data: serializeTrack(await getAccessibleTrackCourse(ctx.db, ctx.subjectId, params.track_id)) }),
});

export const listRosterAthletes = defineOperation({
  method: "get",
  path: "/roster/athletes",
  operationId: "list_roster_athletes",
  summary: "Athletes the subject can see: their own record, those they manage, and those they coach in a team",
  tag: "Roster",
  scopes: ["athlete:read"],
  surfaces: DATA_ONLY,
  paged: true,
  response: ZRosterAthlete,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listAccessibleAthletesAfter(ctx.db, ctx.subjectId, { afterId: afterId(after), take }),
      byId,
    );
    return { data: page.rows.map(serializeRosterAthlete), meta: page.meta };
  },
});

export const getRosterAthlete = defineOperation({
  method: "get",
  path: "/roster/athletes/{athlete_id}",
  operationId: "get_roster_athlete",
  summary: "One athlete the subject can see",
  tag: "Roster",
  scopes: ["athlete:read"],
  surfaces: DATA_ONLY,
  pathParams: { athlete_id: pathId("athlete_id").describe("athlete identifier") },
  response: ZRosterAthlete,
  handler: async (ctx, { params }) => ({
    data: serializeRosterAthlete(await getAccessibleAthleteSummary(ctx.db, ctx.subjectId, params.athlete_id)),
  }),
});

export const listTeams = defineOperation({
  method: "get",
  path: "/teams",
  operationId: "list_teams",
  summary: "Teams the subject owns, coaches or belongs to as an athlete",
  tag: "Roster",
  scopes: ["athlete:read"],
  surfaces: DATA_ONLY,
  paged: true,
  response: ZTeamListItem,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listAccessibleTeamsAfter(ctx.db, ctx.subjectId, { afterId: afterId(after), take }),
      byId,
    );
    return { data: page.rows.map(serializeTeamListItem), meta: page.meta };
  },
});

export const getTeam = defineOperation({
  method: "get",
  path: "/teams/{team_id}",
  operationId: "get_team",
  summary: "One team: its name, its coaches by display name, and the athletes in it the subject can see",
  description: "Read-only: no roles, licences or membership controls. Athletes of the team the subject may not see are left out.",
  tag: "Roster",
  scopes: ["athlete:read"],
  surfaces: DATA_ONLY,
  pathParams: { team_id: pathId("team_id").describe("team identifier") },
  response: ZTeam,
  handler: async (ctx, { params }) => ({ data: serializeTeam(await getTeamRoster(ctx.db, ctx.subjectId, params.team_id)) }),
});

export const rosterOperations = [dataApiListTracks, dataApiGetTrack, listRosterAthletes, getRosterAthlete, listTeams, getTeam];
