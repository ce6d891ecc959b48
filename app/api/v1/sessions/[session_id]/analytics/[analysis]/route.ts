import { getSessionAnalytics } from "@/server/http/data-api/operations/analytics";

export const GET = getSessionAnalytics.handle;
