import { listWeights } from "@/server/http/data-api/operations/records-health";

export const GET = listWeights.handle;
