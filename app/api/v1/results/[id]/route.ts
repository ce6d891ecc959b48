import { getResult, removeResult } from "@/server/http/results-api/result-routes";

export const GET = getResult;
export const DELETE = removeResult;
