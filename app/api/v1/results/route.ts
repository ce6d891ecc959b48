import { listResults } from "@/server/http/results-api/result-routes";
import { uploadResultRoute } from "@/server/http/results-api/upload-route";

export const GET = listResults;
export const POST = uploadResultRoute;
