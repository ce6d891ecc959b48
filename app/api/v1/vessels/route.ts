import { apiRoute } from "@/server/http/api-routing";
import { vesselOperations } from "@/server/http/results-api/operations/reference";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(vesselOperations.list);
