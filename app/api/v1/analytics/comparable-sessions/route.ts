import { getComparableSessions } from "@/server/http/data-api/operations/analytics";

export const GET = getComparableSessions.handle;
