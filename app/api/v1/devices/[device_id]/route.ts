import { getDevice } from "@/server/http/data-api/operations/devices";

export const GET = getDevice.handle;
