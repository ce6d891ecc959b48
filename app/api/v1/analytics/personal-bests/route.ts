import { apiRoute } from "@/server/http/api-routing";
import { getPersonalBests } from "@/server/http/data-api/operations/analytics";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getPersonalBests);
