import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { GET } from "@/app/api/docs/export-json.schema.json/route";

// The JSON export's schema is served beside the OpenAPI documents (docs/exports.md). Real exports of
// a session and a training are validated against it in server/exports/builders/{json,training-export}.test.ts.
it("GET /api/docs/export-json.schema.json serves the committed JSON Schema: version 2, a session's or a training's document", async () => {
  const response = GET();
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/schema+json");
  const schema = await response.json();
  expect(schema).toEqual(JSON.parse(readFileSync("docs/export-json.schema.json", "utf8")));
  const kinds = (schema.oneOf as { properties: { kind: { const: string }; version: { const: number } } }[]).map((d) => [
    d.properties.kind.const,
    d.properties.version.const,
  ]);
  expect(kinds).toEqual([
    ["session", 2],
    ["training", 2],
  ]);
});
