import { apiRoute } from "@/server/http/api-routing";
import { getDeviceJob } from "@/server/http/data-api/operations/devices";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getDeviceJob);
