import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { dereference } from "../../server/http/openapi/dereference";

type Response = { content?: Record<string, { schema: object }> };
type Operation = { responses: Record<string, Response | { $ref: string }>; security?: unknown[] };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: { responses?: Record<string, Response> } };
/** An operation read with its references resolved. */
type ResolvedOperation = { responses: Record<string, Response>; security?: unknown[] };
type ResolvedDocument = { paths: Record<string, Record<string, ResolvedOperation>> };

/** The document's URI inside the validator: its schemas' `#/components/schemas/…` references resolve against it. */
const DOCUMENT_ID = "urn:paddle-results:openapi";
const pointerSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** What a validator needs of a response, whichever layer made it (an in-process Response, Playwright's APIResponse). */
export interface AnswerToCheck {
  status: number;
  contentType: string;
  /** The parsed JSON body (ignored when the content type is not JSON). */
  body: unknown;
}

/**
 * Validates real responses against an OpenAPI document, for the in-process
 * API tests (test/api) and Playwright (e2e/openapi-validator.ts) alike: the
 * status must be documented for the operation, and a JSON body must match its
 * schema. Throws an Error naming the operation and the mismatch. Schemas
 * and responses the document names (`$ref` to its components) are resolved
 * within the document itself.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ReturnType<Ajv2020["compile"]>>();
  private readonly templates: { method: string; template: string; pattern: RegExp; statics: number }[];

  /** The document with its references resolved, for tests that read operations as plain data. */
  readonly doc: ResolvedDocument;

  constructor(readonly source: OpenApiDocument) {
    addFormats(this.ajv);
    this.doc = dereference(source) as ResolvedDocument;
    // Schemas are compiled where they stand in the document itself, so `#/components/schemas/Session` resolves as a client resolves it.
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: source.components ?? {}, paths: source.paths }, undefined, undefined, false);
    this.templates = Object.entries(source.paths).flatMap(([template, methods]) =>
      Object.keys(methods).map((method) => ({
        method,
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
        statics: template.split("/").filter((part) => part && !part.startsWith("{")).length,
      })),
    );
  }

  /** The document's template for a concrete path (relative to the server URL, e.g. /sessions/12), the most specific first; null when none. */
  templateOf(method: string, path: string): string | null {
    const matches = this.templates
      .filter((t) => t.method === method.toLowerCase() && t.pattern.test(path))
      .sort((a, b) => b.statics - a.statics);
    return matches[0]?.template ?? null;
  }

  operation(method: string, template: string): ResolvedOperation | undefined {
    return this.doc.paths[template]?.[method.toLowerCase()];
  }

  /** Checks one answer of `method template`; returns nothing, throws on a mismatch. */
  check(method: string, template: string, answer: AnswerToCheck): void {
    const operation = this.source.paths[template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${template} is not in the OpenAPI document`);
    const status = String(answer.status);
    const listed = operation.responses[status];
    if (!listed) throw new Error(`${method} ${template} answered ${status}, which the document does not list`);
    const sharedName = "$ref" in listed ? listed.$ref.replace("#/components/responses/", "") : null;
    const documented = sharedName ? this.source.components?.responses?.[sharedName] : (listed as Response);
    if (!documented) throw new Error(`${method} ${template} ${status}: ${JSON.stringify(listed)} is not in the document`);
    if (!answer.contentType.includes("application/json")) return;
    if (!documented.content?.["application/json"]?.schema) throw new Error(`${method} ${template} ${status} has no JSON schema`);
    const key = `${method} ${template} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const pointer = sharedName ? ["components", "responses", sharedName] : ["paths", template, method.toLowerCase(), "responses", status];
      const location = [...pointer, "content", "application/json", "schema"].map(pointerSegment).join("/");
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${location}` });
      this.cache.set(key, validate);
    }
    if (!validate(answer.body))
      throw new Error(`${key}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body).slice(0, 500)}`);
  }
}
