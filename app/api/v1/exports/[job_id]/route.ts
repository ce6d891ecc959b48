import { getExport } from "@/server/http/data-api/operations/exports";

export const GET = getExport.handle;
