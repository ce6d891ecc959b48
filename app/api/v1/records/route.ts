import { apiRoute } from "@/server/http/api-routing";
import { listRecords } from "@/server/http/data-api/operations/records-health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listRecords);
