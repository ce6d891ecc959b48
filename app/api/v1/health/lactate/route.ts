import { listLactate } from "@/server/http/data-api/operations/records-health";

export const GET = listLactate.handle;
