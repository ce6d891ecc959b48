import { apiRoute } from "@/server/http/api-routing";
import { getCatalogue } from "@/server/http/data-api/operations/equipment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getCatalogue);
