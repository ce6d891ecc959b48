import { apiRoute } from "@/server/http/api-routing";
import { downloadDeviceFile } from "@/server/http/data-api/operations/devices";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(downloadDeviceFile);
