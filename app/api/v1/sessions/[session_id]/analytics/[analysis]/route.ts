import { apiRoute } from "@/server/http/api-routing";
import { getSessionAnalytics } from "@/server/http/data-api/operations/analytics";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getSessionAnalytics);
