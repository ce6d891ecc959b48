import { apiRoute } from "@/server/http/api-routing";
import { listWeights } from "@/server/http/data-api/operations/records-health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listWeights);
