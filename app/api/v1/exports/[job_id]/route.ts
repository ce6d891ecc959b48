import { apiRoute } from "@/server/http/api-routing";
import { getExport } from "@/server/http/data-api/operations/exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getExport);
