import { createSessionExport } from "@/server/http/data-api/operations/exports";

export const POST = createSessionExport.handle;
