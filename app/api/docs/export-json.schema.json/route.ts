import { exportJsonSchema } from "@/server/exports/builders/json";

// The JSON Schema of the JSON export (docs/exports.md), served beside the OpenAPI documents.
export function GET() {
  return Response.json(exportJsonSchema(), { headers: { "Content-Type": "application/schema+json" } });
}
