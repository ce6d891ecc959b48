import { listRecords } from "@/server/http/data-api/operations/records-health";

export const GET = listRecords.handle;
