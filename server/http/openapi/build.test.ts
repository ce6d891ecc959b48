import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument, type OperationSpec } from "./build";
import { dereference } from "./dereference";

/** The document builder's naming (docs/openapi.md "Named models"), on small made-up operations. */
const info = { title: "t", version: "1", description: "d", serverUrl: "https://x.example", securitySchemes: {} };
const ZThing = z.object({ id: z.number().int(), parent: z.number().int().nullable() });
const models = { TestThing: ZThing };
const op = (path: string, spec: Partial<OperationSpec> = {}): OperationSpec => ({
  method: "get",
  path,
  operationId: path.replace(/\W/g, "_"),
  summary: path,
  tags: ["T"],
  security: [],
  pathParams: [{ name: "thing_id", description: "the thing" }],
  responses: { 200: { description: "ok", schema: z.object({ data: ZThing }) } },
  ...spec,
});
type Doc = { paths: Record<string, { get: Record<string, unknown> }>; components: Record<string, Record<string, unknown>> };

describe("buildOpenApiDocument", () => {
  it("writes a model once under components/schemas and refers to it, a described use with its own description", () => {
    const doc = buildOpenApiDocument({
      ...info,
      models,
      operations: [
        op("/a/{thing_id}"),
        op("/b/{thing_id}", {
          responses: { 200: { description: "ok", schema: z.object({ data: ZThing.describe("the one asked for") }) } },
        }),
      ],
    }) as unknown as Doc;
    expect(Object.keys(doc.components.schemas)).toEqual(["TestThing"]);
    expect(JSON.stringify(doc.paths["/a/{thing_id}"].get.responses)).toContain('"data":{"$ref":"#/components/schemas/TestThing"}');
    expect(JSON.stringify(doc.paths["/b/{thing_id}"].get.responses)).toContain(
      '"data":{"description":"the one asked for","$ref":"#/components/schemas/TestThing"}',
    );
    // The parameter both operations declare alike is shared, under its own name.
    expect(doc.components.parameters).toEqual({
      ThingId: { name: "thing_id", in: "path", required: true, description: "the thing", schema: { type: "integer", minimum: 1 } },
    });
    expect(doc.paths["/a/{thing_id}"].get.parameters).toEqual([{ $ref: "#/components/parameters/ThingId" }]);
    // Resolved, it reads as the inlined document did.
    const resolved = dereference(doc);
    expect(resolved.paths["/a/{thing_id}"].get.parameters).toEqual([doc.components.parameters.ThingId]);
  });

  it("keeps a parameter declared once inline", () => {
    const doc = buildOpenApiDocument({ ...info, operations: [op("/a/{thing_id}")] }) as unknown as Doc;
    expect(doc.components.parameters).toBeUndefined();
    expect(doc.paths["/a/{thing_id}"].get.parameters).toEqual([
      { name: "thing_id", in: "path", required: true, description: "the thing", schema: { type: "integer", minimum: 1 } },
    ]);
  });

  it("refuses a model that reads differently from how it is answered", () => {
    const ZDefaulted = z.object({ count: z.number().int().default(4) });
    expect(() =>
      buildOpenApiDocument({
        ...info,
        models: { TestDefaulted: ZDefaulted },
        operations: [
          op("/a/{thing_id}", { responses: { 200: { description: "ok", schema: ZDefaulted } } }),
          op("/b/{thing_id}", { method: "post", requestBody: { contentType: "application/json", schema: ZDefaulted } }),
        ],
      }),
    ).toThrow(/TestDefaulted .*reads differently from how it is answered/);
  });

  it("shares a named response, and refuses a name that stands for two answers", () => {
    const error = (description: string) => ({ 404: { description, schema: z.object({ error: z.string() }), name: "TestNotFound" } });
    const doc = buildOpenApiDocument({
      ...info,
      operations: [op("/a/{thing_id}", { responses: error("absent") }), op("/b/{thing_id}", { responses: error("absent") })],
    }) as unknown as Doc;
    expect(Object.keys(doc.components.responses)).toEqual(["TestNotFound"]);
    expect(doc.paths["/b/{thing_id}"].get.responses).toEqual({ 404: { $ref: "#/components/responses/TestNotFound" } });
    expect(() =>
      buildOpenApiDocument({
        ...info,
        operations: [op("/a/{thing_id}", { responses: error("absent") }), op("/b/{thing_id}", { responses: error("gone") })],
      }),
    ).toThrow(/The shared response TestNotFound differs at GET \/b\/\{thing_id\}/);
  });

  it("is the same text on every build", () => {
    const build = () => JSON.stringify(buildOpenApiDocument({ ...info, operations: [op("/b/{thing_id}"), op("/a/{thing_id}")] }));
    expect(build()).toBe(build());
  });
});
