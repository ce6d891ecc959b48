import { describe, expect, it } from "vitest";
import { dataApiDocument } from "../data-api/openapi";
import { dereference } from "../openapi/dereference";
import { resultsApiDocument } from "../results-api/openapi";

/**
 * Both OpenAPI documents come from the operation declarations (issue 14,
 * "One operation kernel"): what they must say about every operation.
 */
type Operation = {
  parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { encoding?: Record<string, { contentType: string }> }> };
};
// Read as plain data: the shared parameters, responses and models resolved in place.
const documents = {
  results: dereference(resultsApiDocument("https://example.test")),
  data: dereference(dataApiDocument("https://example.test")),
};
const operationsOf = (doc: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ label: `${method.toUpperCase()} ${path}`, op: op as Operation })),
  );

describe("the OpenAPI documents", () => {
  it("the results API's has its 16 operations, built from declarations", () => {
    const labels = operationsOf(documents.results).map((o) => o.label);
    expect(labels).toHaveLength(16);
    expect(labels).toEqual(
      expect.arrayContaining([
        "GET /results",
        "POST /results",
        "GET /results/{id}",
        "DELETE /results/{id}",
        "GET /results/{id}/pdf",
        "GET /tracks/{id}",
        "GET /health",
      ]),
    );
  });

  for (const [name, doc] of Object.entries(documents)) {
    it(`${name}: every id, page and count parameter is typed integer with its bounds`, () => {
      for (const { label, op } of operationsOf(doc)) {
        for (const p of op.parameters ?? []) {
          // job_id is a string by the spec (data-api.md "Common identifiers").
          if (p.name !== "job_id" && /(^|_)id$|^(page|per_page|limit|dist|splits|count|max_points|distance_m)$/.test(p.name)) {
            expect(p.schema.type, `${label} ${p.name}`).toBe("integer");
            expect(p.schema.maximum, `${label} ${p.name}`).toBeLessThanOrEqual(2_147_483_647);
          }
          // An integer carries integer keywords only (no string `pattern` left from parsing the query text).
          if (p.schema.type === "integer")
            expect(
              Object.keys(p.schema).filter((k) => ["pattern", "minLength", "maxLength", "format"].includes(k)),
              `${label} ${p.name}`,
            ).toEqual([]);
        }
      }
    });

    it(`${name}: a 401 documents only the headers actually sent (no rate-limit headers: the limit is counted after the credential)`, () => {
      for (const { label, op } of operationsOf(doc)) {
        const unauthorized = op.responses["401"];
        if (!unauthorized) continue;
        expect(Object.keys(unauthorized.headers ?? {}).sort(), label).toEqual(["WWW-Authenticate", "X-Request-Id"]);
      }
    });
  }

  it("GET /tracks and /tracks/{id}: both documents accept the anonymous 401 body", () => {
    for (const [doc, path] of [
      [documents.results, "/tracks"],
      [documents.results, "/tracks/{id}"],
      [documents.data, "/tracks"],
      [documents.data, "/tracks/{track_id}"],
    ] as const) {
      const schema = JSON.stringify(
        (doc.paths as Record<string, Record<string, Operation>>)[path].get.responses["401"].content!["application/json"].schema,
      );
      for (const member of ["error", "message", "error_description", "request_id"]) expect(schema).toContain(`"${member}"`);
    }
  });

  it("POST /results documents the metadata part's encoding and the duplicate-file 409", () => {
    const upload = (documents.results.paths as Record<string, Record<string, Operation>>)["/results"].post;
    expect(upload.requestBody!.content["multipart/form-data"].encoding!.metadata.contentType).toContain("application/json");
    expect(JSON.stringify(upload.responses["409"].content!["application/json"].schema)).toContain("existing_result_id");
  });
});
