import { getSessionSplitsOp } from "@/server/http/data-api/operations/sessions";

export const GET = getSessionSplitsOp.handle;
