import { apiRoute } from "@/server/http/api-routing";
import { getComparableSessions } from "@/server/http/data-api/operations/analytics";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getComparableSessions);
