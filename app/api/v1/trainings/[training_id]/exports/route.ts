import { apiRoute } from "@/server/http/api-routing";
import { createTrainingExport } from "@/server/http/data-api/operations/exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(createTrainingExport);
