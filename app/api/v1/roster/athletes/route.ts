import { apiRoute } from "@/server/http/api-routing";
import { listRosterAthletes } from "@/server/http/data-api/operations/roster";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listRosterAthletes);
