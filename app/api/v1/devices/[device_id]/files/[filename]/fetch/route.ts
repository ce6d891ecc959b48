import { fetchDeviceFile } from "@/server/http/data-api/operations/devices";

export const POST = fetchDeviceFile.handle;
