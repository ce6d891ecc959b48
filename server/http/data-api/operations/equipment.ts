import { SURFACES } from "../../../auth/oauth/scopes";
import { getOwnPaddle, getOwnVessel, listOwnPaddles, listOwnVessels } from "../../../equipment/equipment";
import { CATALOGUE_KINDS, listBoatClasses, listSessionOptions, PADDLE_KINDS } from "../../../reference/catalogues";
import { defineOperation, pathId } from "../define-operation";
import type { KeysetPosition } from "../../../contract/keyset";
import { keysetPage } from "../pagination";
import { enumQuery } from "../params";
import {
  serializeBoatClass,
  serializeEquipmentPaddle,
  serializeEquipmentVessel,
  serializePaddleKind,
  serializeSessionOptions,
  ZCatalogue,
  ZEquipmentItem,
} from "../../../equipment/equipment-wire";

/** Equipment and catalogues (data-api.md "Equipment, catalogues, records, health"): every surface. */
const EQUIPMENT_KINDS = ["vessels", "paddles"] as const;
// An unknown kind is a malformed request (400 naming `kind`), not an absent resource.
const kindParam = enumQuery("kind", EQUIPMENT_KINDS).describe("vessels (boats) or paddles");

export const listEquipment = defineOperation({
  method: "get",
  path: "/equipment/{kind}",
  operationId: "list_equipment",
  summary: "The subject's own boats or paddles, in id order",
  tag: "Equipment",
  scopes: ["equipment:read"],
  surfaces: SURFACES,
  pathParams: { kind: kindParam },
  paged: true,
  response: ZEquipmentItem,
  handler: async (ctx, { params, query }) => {
    const afterId = (after: KeysetPosition | null) => (after ? Number(after[0]) : null);
    const byId = (row: { id: number }): KeysetPosition => [row.id];
    if (params.kind === "vessels") {
      const page = await keysetPage(
        ctx,
        query,
        (after, take) => listOwnVessels(ctx.db, ctx.subjectId, { afterId: afterId(after), take }),
        byId,
      );
      return { data: page.rows.map(serializeEquipmentVessel), meta: page.meta };
    }
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listOwnPaddles(ctx.db, ctx.subjectId, { afterId: afterId(after), take }),
      byId,
    );
    return { data: page.rows.map(serializeEquipmentPaddle), meta: page.meta };
  },
});

export const getEquipmentItem = defineOperation({
  method: "get",
  path: "/equipment/{kind}/{item_id}",
  operationId: "get_equipment_item",
  summary: "One of the subject's own boats or paddles",
  tag: "Equipment",
  scopes: ["equipment:read"],
  surfaces: SURFACES,
  pathParams: { kind: kindParam, item_id: pathId("item_id").describe("boat or paddle identifier") },
  response: ZEquipmentItem,
  handler: async (ctx, { params }) => ({
    data:
      params.kind === "vessels"
        ? serializeEquipmentVessel(await getOwnVessel(ctx.db, ctx.subjectId, params.item_id))
        : serializeEquipmentPaddle(await getOwnPaddle(ctx.db, ctx.subjectId, params.item_id)),
  }),
});

export const getCatalogue = defineOperation({
  method: "get",
  path: "/catalogues/{kind}",
  operationId: "get_catalogue",
  summary: "A reference catalogue, whole: boat classes, paddle kinds, or the categories and paces of sessions",
  description: "The ids are those of GET /sessions filters (boat_class_id, category_id, pace_id) and of session and equipment fields.",
  tag: "Equipment",
  scopes: ["catalog:read"],
  surfaces: SURFACES,
  pathParams: { kind: enumQuery("kind", CATALOGUE_KINDS).describe("boats, paddles or session-options") },
  response: ZCatalogue,
  handler: async (ctx, { params }) => {
    switch (params.kind) {
      case "boats":
        return { data: (await listBoatClasses(ctx.db)).map(serializeBoatClass) };
      case "paddles":
        return { data: PADDLE_KINDS.map(serializePaddleKind) };
      case "session-options":
        return { data: serializeSessionOptions(await listSessionOptions(ctx.db)) };
    }
  },
});

export const equipmentOperations = [listEquipment, getEquipmentItem, getCatalogue];
