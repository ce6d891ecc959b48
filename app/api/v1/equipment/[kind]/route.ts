import { apiRoute } from "@/server/http/api-routing";
import { listEquipment } from "@/server/http/data-api/operations/equipment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listEquipment);
