import { getEquipmentItem } from "@/server/http/data-api/operations/equipment";

export const GET = getEquipmentItem.handle;
