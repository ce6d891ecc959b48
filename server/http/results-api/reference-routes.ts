import { getReferenceItem, listReferencePage, type ReferenceKind } from "../../reference/paged-reference";
import { offsetOf, paged, ZPageQuery } from "./pagination";
import { parsePathId, parseQuery } from "./params";
import { serializeNamed, serializeVessel } from "./serializers";
import { withKeyPair } from "./with-key-pair";

const serializers: Record<ReferenceKind, (row: never) => unknown> = {
  vessels: serializeVessel,
  categories: serializeNamed,
  paces: serializeNamed,
};

/** GET /{kind} and GET /{kind}/{id} for the reference tables; a bare public key is enough. */
export function referenceRoutes(kind: ReferenceKind) {
  const serialize = serializers[kind] as (row: unknown) => unknown;
  return {
    list: withKeyPair({ auth: "public" }, async (ctx) => {
      const page = parseQuery(ZPageQuery, ctx.url);
      const { rows, total } = await listReferencePage(ctx.db, kind, page.per_page, offsetOf(page));
      return { body: paged(rows.map(serialize), total, page) };
    }),
    item: withKeyPair<{ id: string }>({ auth: "public" }, async (ctx, params) => {
      const row = await getReferenceItem(ctx.db, kind, parsePathId(params.id));
      return { body: { data: serialize(row) } };
    }),
  };
}
