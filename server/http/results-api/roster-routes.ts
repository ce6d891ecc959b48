import { getAccessibleAthleteSummary, listAccessibleAthletesPage } from "../../athletes/paged-athletes";
import { getAccessibleTrackSummary, listAccessibleTracksPage } from "../../tracks/paged-tracks";
import { ZAthletesQuery } from "./contract";
import { offsetOf, paged, ZPageQuery } from "./pagination";
import { parsePathId, parseQuery } from "./params";
import { serializeAthlete, serializeNamed } from "./serializers";
import { withKeyPair } from "./with-key-pair";

export const listTracks = withKeyPair({ auth: "secret" }, async (ctx) => {
  const page = parseQuery(ZPageQuery, ctx.url);
  const { rows, total } = await listAccessibleTracksPage(ctx.db, ctx.user.id, page.per_page, offsetOf(page));
  return { body: paged(rows.map(serializeNamed), total, page) };
});

// The route folder is [track_id], shared with the Data API (one parameter name per segment); this API still documents it as {id}.
export const getTrack = withKeyPair<{ track_id: string }>({ auth: "secret" }, async (ctx, params) => {
  const track = await getAccessibleTrackSummary(ctx.db, ctx.user.id, parsePathId(params.track_id));
  return { body: { data: serializeNamed(track) } };
});

export const listAthletes = withKeyPair({ auth: "secret" }, async (ctx) => {
  const query = parseQuery(ZAthletesQuery, ctx.url);
  const { rows, total } = await listAccessibleAthletesPage(ctx.db, ctx.user.id, { modality: query.modality }, query.per_page, offsetOf(query));
  return { body: paged(rows.map(serializeAthlete), total, query) };
});

export const getAthlete = withKeyPair<{ id: string }>({ auth: "secret" }, async (ctx, params) => {
  const athlete = await getAccessibleAthleteSummary(ctx.db, ctx.user.id, parsePathId(params.id));
  return { body: { data: serializeAthlete(athlete) } };
});
