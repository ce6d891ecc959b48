import { apiRoute } from "@/server/http/api-routing";
import { listTeams } from "@/server/http/data-api/operations/roster";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listTeams);
