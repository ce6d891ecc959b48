import { listEquipment } from "@/server/http/data-api/operations/equipment";

export const GET = listEquipment.handle;
