import { apiRoute } from "@/server/http/api-routing";
import { downloadExport } from "@/server/http/data-api/operations/exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(downloadExport);
