import { listResults } from "@/server/http/results-api/result-routes";

export const GET = listResults;
