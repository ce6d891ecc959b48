import { downloadDeviceFile } from "@/server/http/data-api/operations/devices";

export const POST = downloadDeviceFile.handle;
