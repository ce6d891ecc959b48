import { getEnv } from "@/server/config/env";
import { resultsApiDocument } from "@/server/http/results-api/openapi";

// The results API's OpenAPI 3.1 document (the Data API's is served beside it).
export function GET() {
  return Response.json(resultsApiDocument(getEnv().appUrl));
}
