import type { z } from "zod";
import { getReferenceItem, listReferencePage, type ReferenceKind } from "../../../reference/paged-reference";
import { idParam } from "../../kernel/params";
import { ZNamed, ZVessel } from "../contract";
import { defineResultsOperation } from "../define-operation";
import { offsetOf, pageMeta } from "../pagination";
import { serializeNamed, serializeVessel } from "../serializers";

/** Reference tables (vessels, categories, paces): a bare public key is enough. */
const TABLES: Record<ReferenceKind, { label: string; item: z.ZodType; serialize: (row: never) => unknown }> = {
  vessels: { label: "vessel type", item: ZVessel, serialize: serializeVessel },
  categories: { label: "category", item: ZNamed, serialize: serializeNamed },
  paces: { label: "pace", item: ZNamed, serialize: serializeNamed },
};

function referenceOperations(kind: ReferenceKind) {
  const { label, item } = TABLES[kind];
  const serialize = TABLES[kind].serialize as (row: unknown) => unknown;
  return {
    list: defineResultsOperation({
      method: "get",
      path: `/${kind}`,
      operationId: `list_${kind}`,
      summary: `Paged ${label} list`,
      tag: "Reference",
      access: { auth: "public" },
      paged: true,
      response: item,
      handler: async (ctx, { query }) => {
        const { rows, total } = await listReferencePage(ctx.db, kind, query.per_page, offsetOf(query));
        return { data: rows.map(serialize), meta: pageMeta(total, query) };
      },
    }),
    item: defineResultsOperation({
      method: "get",
      path: `/${kind}/{id}`,
      operationId: `get_${kind}`,
      summary: `One ${label}`,
      tag: "Reference",
      access: { auth: "public" },
      pathParams: { id: idParam("id").describe(`${label} identifier`) },
      response: item,
      errors: { 404: "not_found: absent" },
      handler: async (ctx, { params }) => ({ data: serialize(await getReferenceItem(ctx.db, kind, params.id)) }),
    }),
  };
}

export const vesselOperations = referenceOperations("vessels");
export const categoryOperations = referenceOperations("categories");
export const paceOperations = referenceOperations("paces");

export const referenceTableOperations = [vesselOperations, categoryOperations, paceOperations].flatMap((ops) => [ops.list, ops.item]);
