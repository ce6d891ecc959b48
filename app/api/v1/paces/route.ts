import { apiRoute } from "@/server/http/api-routing";
import { paceOperations } from "@/server/http/results-api/operations/reference";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(paceOperations.list);
