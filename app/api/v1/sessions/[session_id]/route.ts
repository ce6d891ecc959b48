import { getSession } from "@/server/http/data-api/operations/sessions";

export const GET = getSession.handle;
