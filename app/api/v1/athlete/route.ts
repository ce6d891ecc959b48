import { apiRoute } from "@/server/http/api-routing";
import { getAthlete } from "@/server/http/data-api/operations/identity";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getAthlete);
