import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

/**
 * Validates real responses against the served OpenAPI document: the status
 * must be documented for the operation, and a JSON body must match its schema.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ReturnType<Ajv2020["compile"]>>();

  private constructor(private readonly doc: Doc) {
    addFormats(this.ajv);
  }

  static async load(request: APIRequestContext, documentPath: string): Promise<OpenApiValidator> {
    const response = await request.get(documentPath);
    expect(response.status()).toBe(200);
    return new OpenApiValidator(await response.json());
  }

  /** Checks the response and returns its parsed JSON body (or null for a non-JSON body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body was just validated against the document's schema; specs read it freely
  async check(method: string, pathTemplate: string, response: APIResponse): Promise<any> {
    const operation = this.doc.paths[pathTemplate]?.[method.toLowerCase()];
    expect(operation, `${method} ${pathTemplate} is not in the OpenAPI document`).toBeTruthy();
    const status = String(response.status());
    const documented = operation!.responses[status];
    expect(documented, `${method} ${pathTemplate} answered ${status}, which the document does not list`).toBeTruthy();
    const contentType = response.headers()["content-type"] ?? "";
    if (!contentType.includes("application/json")) return null;
    const body = await response.json();
    const schema = documented!.content?.["application/json"]?.schema;
    expect(schema, `${method} ${pathTemplate} ${status} has no JSON schema`).toBeTruthy();
    const key = `${method} ${pathTemplate} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema!);
      this.cache.set(key, validate);
    }
    expect(validate(body), `${key}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
    return body;
  }
}
