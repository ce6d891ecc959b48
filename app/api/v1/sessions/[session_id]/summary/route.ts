import { apiRoute } from "@/server/http/api-routing";
import { getSessionSummary } from "@/server/http/data-api/operations/sessions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getSessionSummary);
