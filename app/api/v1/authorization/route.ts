import { apiRoute } from "@/server/http/api-routing";
import { getAuthorization, deleteAuthorization } from "@/server/http/data-api/operations/identity";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getAuthorization, deleteAuthorization);
