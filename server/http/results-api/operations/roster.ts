import { getAccessibleAthleteSummary, listAccessibleAthletesPage } from "../../../athletes/paged-athletes";
import { getAccessibleTrackSummary, listAccessibleTracksPage } from "../../../tracks/paged-tracks";
import { idParam } from "../../kernel/params";
import { ZAthlete, ZAthletesQuery, ZNamed } from "../contract";
import { defineResultsOperation } from "../define-operation";
import { offsetOf, pageMeta } from "../pagination";
import { serializeAthlete, serializeNamed } from "../serializers";

/** Tracks and athletes the key's owner can access (docs/access.md); others are 404. */
export const listTracks = defineResultsOperation({
  method: "get",
  path: "/tracks",
  operationId: "list_tracks",
  summary: "Paged tracks the user can access",
  description: "Shared path with the Data API: a key pair gets this operation, an OAuth access token the Data API's.",
  tag: "Roster",
  access: { auth: "secret" },
  paged: true,
  response: ZNamed,
  handler: async (ctx, { query }) => {
    const { rows, total } = await listAccessibleTracksPage(ctx.db, ctx.user.id, query.per_page, offsetOf(query));
    return { data: rows.map(serializeNamed), meta: pageMeta(total, query) };
  },
});

// The route folder is [track_id], shared with the Data API (one parameter name per segment); this API documents it as {id}.
const trackIdParam = idParam("id").describe("track identifier");
export const getTrack = defineResultsOperation({
  method: "get",
  path: "/tracks/{id}",
  operationId: "get_track",
  summary: "One accessible track",
  description: "Shared path with the Data API: a key pair gets this operation, an OAuth access token the Data API's.",
  tag: "Roster",
  access: { auth: "secret" },
  pathParams: { id: trackIdParam },
  routeParamNames: { id: "track_id" },
  response: ZNamed,
  errors: { 404: "not_found: absent or not accessible" },
  handler: async (ctx, { params }) => ({ data: serializeNamed(await getAccessibleTrackSummary(ctx.db, ctx.user.id, params.id)) }),
});

export const listAthletes = defineResultsOperation({
  method: "get",
  path: "/athletes",
  operationId: "list_athletes",
  summary: "Paged athletes the user can access",
  tag: "Roster",
  access: { auth: "secret" },
  query: ZAthletesQuery,
  paged: true,
  response: ZAthlete,
  handler: async (ctx, { query }) => {
    const { rows, total } = await listAccessibleAthletesPage(
      ctx.db,
      ctx.user.id,
      { modality: query.modality },
      query.per_page,
      offsetOf(query),
    );
    return { data: rows.map(serializeAthlete), meta: pageMeta(total, query) };
  },
});

export const getAthlete = defineResultsOperation({
  method: "get",
  path: "/athletes/{id}",
  operationId: "get_athlete",
  summary: "One accessible athlete",
  tag: "Roster",
  access: { auth: "secret" },
  pathParams: { id: idParam("id").describe("athlete identifier") },
  response: ZAthlete,
  errors: { 404: "not_found: absent or not accessible" },
  handler: async (ctx, { params }) => ({ data: serializeAthlete(await getAccessibleAthleteSummary(ctx.db, ctx.user.id, params.id)) }),
});

export const rosterOperations = [listTracks, getTrack, listAthletes, getAthlete];
