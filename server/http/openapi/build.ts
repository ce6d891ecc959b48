import { z } from "zod";

/**
 * Builds OpenAPI 3.1 documents from zod schemas (zod 4's own JSON Schema
 * output, draft 2020-12, which OpenAPI 3.1 uses). Shared by both APIs.
 *
 * What a client generator names (docs/openapi.md):
 * - the document's named models (`models`: name → contract schema, e.g.
 *   server/http/data-api/models.ts) are written once under
 *   `components/schemas` and referenced with `$ref`;
 * - a response an API's profile names (its common errors) is written once
 *   under `components/responses`;
 * - a parameter declared identically by two or more operations is written once
 *   under `components/parameters`, named after it (`session_id` → `SessionId`).
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
  /**
   * status → response; a schema means JSON, a string is the content type of a binary body.
   * `name`: the response is one of the API's shared ones, written once under components/responses.
   */
  responses: Record<
    number,
    { description: string; schema?: z.ZodType; contentType?: string; contentTypes?: string[]; headers?: string[]; name?: string }
  >;
}

type Json = Record<string, unknown>;

/** A document's named models: type name → the zod schema it names (the same instance the operations use). */
export type NamedModels = Record<string, z.ZodType>;

const SCHEMA_REF = "#/components/schemas/";

/** Points zod's `#/$defs/Name` references at the document's components. */
function relocateRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relocateRefs);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? SCHEMA_REF + v.slice("#/$defs/".length) : relocateRefs(v),
    ]),
  );
}

/**
 * Embedded schemas must not repeat the dialect: the document declares it once.
 * Integer parameters arrive as text and are checked with a regex before they
 * become numbers (server/http/kernel/params.ts); that `pattern` is a string
 * keyword and means nothing on an integer, so the document leaves it out.
 */
function stripDialect(schema: Json) {
  const rest = { ...schema };
  delete rest.$schema;
  if (rest.type === "integer") delete rest.pattern;
  return rest;
}

/**
 * One document's named models: every conversion of a zod schema goes through it.
 * zod's JSON Schema output extracts a schema whose metadata has an `id` into
 * `$defs` and refers to it there; the metadata it is given here is zod's own
 * (descriptions, the parameter layer's `type` overrides) with the model names
 * added, so the names stay this document's (the JSON export's schema, made
 * from the same contract schemas, stays self-contained). A `.describe()`d use
 * of a model is a clone of it: not named itself, it refers to the model with
 * its own description.
 */
class SchemaComponents {
  private readonly models = new Map<string, { json: Json; text: string }>();
  private readonly metadata: typeof z.globalRegistry;

  constructor(named: NamedModels) {
    const ids = new Map<z.core.$ZodType, string>(Object.entries(named).map(([id, schema]) => [schema, id]));
    this.metadata = {
      get(schema: z.core.$ZodType) {
        const meta = z.globalRegistry.get(schema);
        const id = ids.get(schema);
        return id ? { ...meta, id } : meta;
      },
    } as unknown as typeof z.globalRegistry;
  }

  /** The JSON Schema of `schema` as read (`input`) or as answered (`output`), its named models replaced by `$ref`s. */
  convert(schema: z.ZodType, io: "input" | "output"): Json {
    const { $defs, ...root } = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      metadata: this.metadata,
    }) as Json;
    for (const [id, body] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      if (id.startsWith("__schema")) throw new Error(`An unnamed schema refers to itself; name it among the document's models`);
      const json = relocateRefs(body) as Json;
      const text = JSON.stringify(json);
      const known = this.models.get(id);
      if (known && known.text !== text)
        throw new Error(`The model ${id} has two shapes in one document: it reads differently from how it is answered`);
      this.models.set(id, { json, text });
    }
    return stripDialect(relocateRefs(root) as Json);
  }

  /** components/schemas, sorted by name so that the document is the same on every build. */
  schemas(): Record<string, Json> {
    return Object.fromEntries([...this.models].sort(([a], [b]) => a.localeCompare(b)).map(([id, { json }]) => [id, json]));
  }
}

/** `session_id` → `SessionId`, `Idempotency-Key` → `IdempotencyKey`. */
const pascalCase = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");

/**
 * Moves the parameters that two or more operations declare identically to
 * components/parameters. A parameter whose name has several shared variants
 * (the same name, other descriptions) lends it to the most used one, the
 * first declared on a tie; the others stay inline.
 */
function shareParameters(paths: Record<string, Record<string, Json>>): Record<string, Json> {
  const uses = new Map<string, { parameter: Json; count: number; order: number }>();
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations))
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        const key = JSON.stringify(parameter);
        const use = uses.get(key) ?? { parameter, count: 0, order: uses.size };
        use.count++;
        uses.set(key, use);
      }
  const named = new Map<string, string>();
  const components: Record<string, Json> = {};
  const shared = [...uses].filter(([, use]) => use.count > 1).sort(([, a], [, b]) => b.count - a.count || a.order - b.order);
  for (const [key, { parameter }] of shared) {
    const name = pascalCase(String(parameter.name));
    if (name in components) continue;
    components[name] = parameter;
    named.set(key, name);
  }
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations))
      if (operation.parameters)
        operation.parameters = (operation.parameters as Json[]).map((parameter) => {
          const name = named.get(JSON.stringify(parameter));
          return name ? { $ref: `#/components/parameters/${name}` } : parameter;
        });
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
}

/** An operation's path, query and header parameters. */
function operationParameters(op: OperationSpec, models: SchemaComponents): Json[] {
  const parameters: Json[] = [];
  for (const p of op.pathParams ?? []) {
    parameters.push({
      name: p.name,
      in: "path",
      required: true,
      description: p.description,
      schema: p.schema ? models.convert(p.schema, "input") : { type: "integer", minimum: 1 },
    });
  }
  if (op.query) {
    const shape = op.query.shape as Record<string, z.ZodType>;
    for (const [name, schema] of Object.entries(shape)) {
      const json = models.convert(schema, "input");
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
      schema: models.convert(h.schema, "input"),
    });
  }
  return parameters;
}

/** An operation's responses; a named one is written once into `shared` and referred to. */
function operationResponses(
  op: OperationSpec,
  models: SchemaComponents,
  shared: Map<string, { json: Json; text: string }>,
): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const content = r.schema
      ? { "application/json": { schema: models.convert(r.schema, "output") } }
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
    const response = {
      description: r.description,
      ...(content ? { content } : {}),
      ...(r.headers?.length ? { headers: Object.fromEntries(r.headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
    };
    if (!r.name) {
      responses[status] = response;
      continue;
    }
    const text = JSON.stringify(response);
    const known = shared.get(r.name);
    if (known && known.text !== text) throw new Error(`The shared response ${r.name} differs at ${op.method.toUpperCase()} ${op.path}`);
    shared.set(r.name, { json: response, text });
    responses[status] = { $ref: `#/components/responses/${r.name}` };
  }
  return responses;
}

export function buildOpenApiDocument(info: {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  securitySchemes: Record<string, unknown>;
  headers?: Record<string, unknown>;
  /** Named models: written once under components/schemas. */
  models?: NamedModels;
  operations: OperationSpec[];
}) {
  const models = new SchemaComponents(info.models ?? {});
  const sharedResponses = new Map<string, { json: Json; text: string }>();
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of info.operations) {
    const parameters = operationParameters(op, models);
    const responses = operationResponses(op, models, sharedResponses);
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
                    op.requestBody.schema instanceof z.ZodType ? models.convert(op.requestBody.schema, "input") : op.requestBody.schema,
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
  const parameters = shareParameters(paths);
  const responses = Object.fromEntries([...sharedResponses].sort(([a], [b]) => a.localeCompare(b)).map(([name, { json }]) => [name, json]));
  const schemas = models.schemas();
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      ...(Object.keys(schemas).length ? { schemas } : {}),
      ...(Object.keys(responses).length ? { responses } : {}),
      ...(Object.keys(parameters).length ? { parameters } : {}),
      securitySchemes: info.securitySchemes,
      ...(info.headers ? { headers: info.headers } : {}),
    },
  };
}
