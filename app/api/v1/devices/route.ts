import { listDevices } from "@/server/http/data-api/operations/devices";

export const GET = listDevices.handle;
