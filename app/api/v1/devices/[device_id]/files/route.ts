import { listDeviceFiles } from "@/server/http/data-api/operations/devices";

export const GET = listDeviceFiles.handle;
