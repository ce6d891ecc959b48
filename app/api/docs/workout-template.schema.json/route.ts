import schema from "@/docs/workout-template.schema.json";

// The JSON Schema of the version-1 workout template (docs/workouts.md), served beside the OpenAPI documents.
export function GET() {
  return Response.json(schema, { headers: { "Content-Type": "application/schema+json" } });
}
