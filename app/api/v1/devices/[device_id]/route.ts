import { apiRoute } from "@/server/http/api-routing";
import { getDevice } from "@/server/http/data-api/operations/devices";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getDevice);
