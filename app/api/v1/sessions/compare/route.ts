import { apiRoute } from "@/server/http/api-routing";
import { compareSessionsOp } from "@/server/http/data-api/operations/sessions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(compareSessionsOp);
