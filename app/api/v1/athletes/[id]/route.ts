import { apiRoute } from "@/server/http/api-routing";
import { getAthlete } from "@/server/http/results-api/operations/roster";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getAthlete);
