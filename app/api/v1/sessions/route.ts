import { listSessions } from "@/server/http/data-api/operations/sessions";

export const GET = listSessions.handle;
