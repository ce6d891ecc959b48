import { z } from "zod";

/**
 * Builds OpenAPI 3.1 documents from zod schemas (zod 4's own JSON Schema
 * output, draft 2020-12, which OpenAPI 3.1 uses). Shared by both APIs.
 */
export interface OperationSpec {
  method: "get" | "post" | "delete";
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Names of security schemes that accept this operation; empty = no credential. */
  security: string[];
  /** OAuth scopes required under each security scheme (Data API). */
  securityScopes?: string[];
  /** Extra annotations (e.g. x-scopes, x-surfaces on the Data API). */
  extensions?: Record<string, unknown>;
  pathParams?: { name: string; description: string; schema?: z.ZodType }[];
  query?: z.ZodObject;
  headers?: { name: string; description: string; required: boolean; schema: z.ZodType }[];
  /** `encoding`: per-part content types of a multipart body (OpenAPI 3.1 Encoding Object). */
  requestBody?: {
    contentType: string;
    schema: Record<string, unknown> | z.ZodType;
    description?: string;
    encoding?: Record<string, unknown>;
  };
  /** status → response; a schema means JSON, a string is the content type of a binary body. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string; contentTypes?: string[]; headers?: string[] }>;
}

const toSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;

/**
 * Embedded schemas must not repeat the dialect: the document declares it once.
 * Integer parameters arrive as text and are checked with a regex before they
 * become numbers (server/http/kernel/params.ts); that `pattern` is a string
 * keyword and means nothing on an integer, so the document leaves it out.
 */
function stripDialect(schema: Record<string, unknown>) {
  const rest = { ...schema };
  delete rest.$schema;
  if (rest.type === "integer") delete rest.pattern;
  return rest;
}

export function buildOpenApiDocument(info: {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  securitySchemes: Record<string, unknown>;
  headers?: Record<string, unknown>;
  operations: OperationSpec[];
}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of info.operations) {
    const parameters: unknown[] = [];
    for (const p of op.pathParams ?? []) {
      parameters.push({
        name: p.name,
        in: "path",
        required: true,
        description: p.description,
        schema: p.schema ? stripDialect(toSchema(p.schema, "input")) : { type: "integer", minimum: 1 },
      });
    }
    if (op.query) {
      const shape = op.query.shape as Record<string, z.ZodType>;
      for (const [name, schema] of Object.entries(shape)) {
        const json = stripDialect(toSchema(schema, "input"));
        parameters.push({
          name,
          in: "query",
          required: !schema.safeParse(undefined).success,
          description: (schema.description ?? json.description) as string | undefined,
          schema: json,
        });
      }
    }
    for (const h of op.headers ?? []) {
      parameters.push({
        name: h.name,
        in: "header",
        required: h.required,
        description: h.description,
        schema: stripDialect(toSchema(h.schema, "input")),
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const content = r.schema
        ? { "application/json": { schema: stripDialect(toSchema(r.schema, "output")) } }
        : r.contentType
          ? { [r.contentType]: { schema: { type: "string", contentMediaType: r.contentType } } }
          : r.contentTypes
            ? Object.fromEntries(
                r.contentTypes.map((type) => [
                  type,
                  { schema: type === "application/json" ? { type: "object" } : { type: "string", contentMediaType: type } },
                ]),
              )
            : undefined;
      responses[status] = {
        description: r.description,
        ...(content ? { content } : {}),
        ...(r.headers?.length ? { headers: Object.fromEntries(r.headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
      };
    }
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      security: op.security.length ? op.security.map((name) => ({ [name]: op.securityScopes ?? [] })) : [],
      ...(parameters.length ? { parameters } : {}),
      ...(op.requestBody
        ? {
            requestBody: {
              required: true,
              description: op.requestBody.description,
              content: {
                [op.requestBody.contentType]: {
                  schema:
                    op.requestBody.schema instanceof z.ZodType
                      ? stripDialect(toSchema(op.requestBody.schema, "input"))
                      : op.requestBody.schema,
                  ...(op.requestBody.encoding ? { encoding: op.requestBody.encoding } : {}),
                },
              },
            },
          }
        : {}),
      responses,
      ...(op.extensions ?? {}),
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    components: { securitySchemes: info.securitySchemes, ...(info.headers ? { headers: info.headers } : {}) },
  };
}
