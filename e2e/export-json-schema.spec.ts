import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// The JSON export's schema is served beside the OpenAPI documents (docs/exports.md).
test("GET /api/docs/export-json.schema.json serves the committed JSON Schema", async ({ request }) => {
  const response = await request.get("/api/docs/export-json.schema.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/schema+json");
  expect(await response.json()).toEqual(JSON.parse(readFileSync("docs/export-json.schema.json", "utf8")));
});
