import { getSessionSeriesOp } from "@/server/http/data-api/operations/sessions";

export const GET = getSessionSeriesOp.handle;
