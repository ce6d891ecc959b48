import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }>; security?: unknown[] };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

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
 * schema. Throws an Error naming the operation and the mismatch.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ReturnType<Ajv2020["compile"]>>();
  private readonly templates: { method: string; template: string; pattern: RegExp; statics: number }[];

  constructor(readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.templates = Object.entries(doc.paths).flatMap(([template, methods]) =>
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

  operation(method: string, template: string): Operation | undefined {
    return this.doc.paths[template]?.[method.toLowerCase()];
  }

  /** Checks one answer of `method template`; returns nothing, throws on a mismatch. */
  check(method: string, template: string, answer: AnswerToCheck): void {
    const operation = this.operation(method, template);
    if (!operation) throw new Error(`${method} ${template} is not in the OpenAPI document`);
    const status = String(answer.status);
    const documented = operation.responses[status];
    if (!documented) throw new Error(`${method} ${template} answered ${status}, which the document does not list`);
    if (!answer.contentType.includes("application/json")) return;
    const schema = documented.content?.["application/json"]?.schema;
    if (!schema) throw new Error(`${method} ${template} ${status} has no JSON schema`);
    const key = `${method} ${template} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(key, validate);
    }
    if (!validate(answer.body))
      throw new Error(`${key}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body).slice(0, 500)}`);
  }
}
