import { getSessionSummary } from "@/server/http/data-api/operations/sessions";

export const GET = getSessionSummary.handle;
