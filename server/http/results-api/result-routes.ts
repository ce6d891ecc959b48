import { deleteResult } from "../../results/delete-result";
import { listResultsPage } from "../../results/query-results";
import { getResultDetail } from "../../results/result-detail";
import { ZResultsQuery } from "./contract";
import { offsetOf, paged } from "./pagination";
import { parsePathId, parseQuery } from "./params";
import { serializeResultDetail, serializeResultListItem } from "./serializers";
import { withKeyPair } from "./with-key-pair";

export const listResults = withKeyPair({ auth: "secret" }, async (ctx) => {
  const query = parseQuery(ZResultsQuery, ctx.url);
  const { rows, total } = await listResultsPage(ctx.db, ctx.user.id, query, query.per_page, offsetOf(query));
  return { body: paged(rows.map(serializeResultListItem), total, query) };
});

export const getResult = withKeyPair<{ id: string }>({ auth: "secret" }, async (ctx, params) => {
  const detail = await getResultDetail(ctx.db, ctx.user.id, parsePathId(params.id));
  return { body: { data: serializeResultDetail(detail) } };
});

export const removeResult = withKeyPair<{ id: string }>({ auth: "secret" }, async (ctx, params) => {
  const id = parsePathId(params.id);
  await deleteResult(ctx.db, ctx.user, id);
  return { body: { data: { id, deleted: true } } };
});
