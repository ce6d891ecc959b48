import { getBenchmarks } from "@/server/http/data-api/operations/analytics";

export const GET = getBenchmarks.handle;
