import { getDeviceJob } from "@/server/http/data-api/operations/devices";

export const GET = getDeviceJob.handle;
