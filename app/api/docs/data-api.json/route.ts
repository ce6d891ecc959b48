import { getEnv } from "@/server/config/env";
import { dataApiDocument } from "@/server/http/data-api/openapi";

// The Data API's OpenAPI 3.1 document, built from the handlers' own schemas.
export function GET() {
  return Response.json(dataApiDocument(getEnv().appUrl));
}
