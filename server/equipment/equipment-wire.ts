import { z } from "zod";
import { PADDLE_KINDS } from "../reference/catalogues";

/** Allowlisted serializers of owned equipment and the reference catalogues. No owner field exists here. */
export const ZEquipmentVessel = z.object({
  item_type: z.literal("vessel"),
  id: z.number().int().describe("the vessel_id of GET /sessions"),
  name: z.string().describe("the owner's name for the boat"),
  boat_class: z.object({ id: z.number().int(), type: z.string().describe("K1 … C4") }),
  brand: z.string(),
  model: z.string(),
  weight_kg: z.number().nullable().describe("hull mass"),
});

export function serializeEquipmentVessel(row: {
  id: number;
  name: string;
  vesselTypeId: number;
  vesselType: string;
  brand: string;
  model: string;
  weightKg: number | null;
}): z.output<typeof ZEquipmentVessel> {
  return {
    item_type: "vessel",
    id: row.id,
    name: row.name,
    boat_class: { id: row.vesselTypeId, type: row.vesselType },
    brand: row.brand,
    model: row.model,
    weight_kg: row.weightKg,
  };
}

export const ZEquipmentPaddle = z.object({
  item_type: z.literal("paddle"),
  id: z.number().int(),
  name: z.string().describe("the owner's name for the paddle"),
  kind: z.enum(["kayak", "canoe"]).describe("kayak: double-bladed; canoe: single-bladed"),
  brand: z.string(),
  model: z.string(),
  length_cm: z.number().nullable(),
  blade_area_cm2: z.number().nullable(),
});

export function serializeEquipmentPaddle(row: {
  id: number;
  name: string;
  kind: "kayak" | "canoe";
  brand: string;
  model: string;
  lengthCm: number | null;
  bladeAreaCm2: number | null;
}): z.output<typeof ZEquipmentPaddle> {
  return {
    item_type: "paddle",
    id: row.id,
    name: row.name,
    kind: row.kind,
    brand: row.brand,
    model: row.model,
    length_cm: row.lengthCm,
    blade_area_cm2: row.bladeAreaCm2,
  };
}

export const ZEquipmentItem = z
  .discriminatedUnion("item_type", [ZEquipmentVessel, ZEquipmentPaddle])
  .describe("a boat (kind vessels) or a paddle (kind paddles)");

export const ZBoatClass = z.object({
  id: z.number().int().describe("the boat_class_id of GET /sessions"),
  type: z.string().describe("K1 … C4"),
  crew_size: z.number().int(),
  hull: z.enum(["kayak", "canoe"]),
});

export const serializeBoatClass = (row: {
  id: number;
  type: string;
  crewSize: number;
  hull: "kayak" | "canoe";
}): z.output<typeof ZBoatClass> => ({
  id: row.id,
  type: row.type,
  crew_size: row.crewSize,
  hull: row.hull,
});

export const ZPaddleKind = z.object({
  kind: z.enum(["kayak", "canoe"]).describe("the kind of equipment paddles"),
  name: z.string(),
  blades: z.number().int().describe("2 for a kayak paddle, 1 for a canoe paddle"),
});

export const serializePaddleKind = (row: (typeof PADDLE_KINDS)[number]): z.output<typeof ZPaddleKind> => ({
  kind: row.kind,
  name: row.name,
  blades: row.blades,
});

const ZOption = z.object({ id: z.number().int(), name: z.string() });
export const ZSessionOptions = z.object({
  categories: z.array(ZOption).describe("the category_id values of sessions"),
  paces: z.array(ZOption).describe("the pace_id values of sessions"),
});

export function serializeSessionOptions(options: {
  categories: { id: number; name: string }[];
  paces: { id: number; name: string }[];
}): z.output<typeof ZSessionOptions> {
  return {
    categories: options.categories.map((c) => ({ id: c.id, name: c.name })),
    paces: options.paces.map((p) => ({ id: p.id, name: p.name })),
  };
}

export const ZCatalogue = z
  .union([z.array(ZBoatClass), z.array(ZPaddleKind), ZSessionOptions])
  .describe("boats: an array of boat classes; paddles: an array of paddle kinds; session-options: {categories, paces}");
