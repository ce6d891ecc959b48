import { downloadExport } from "@/server/http/data-api/operations/exports";

export const GET = downloadExport.handle;
