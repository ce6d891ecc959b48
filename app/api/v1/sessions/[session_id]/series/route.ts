import { apiRoute } from "@/server/http/api-routing";
import { getSessionSeriesOp } from "@/server/http/data-api/operations/sessions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getSessionSeriesOp);
