import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { OpenApiValidator as DocumentValidator } from "../test/api/openapi-validator";

/**
 * Validates real responses against the served OpenAPI document: the status
 * must be documented for the operation, and a JSON body must match its
 * schema. Playwright's face of the validator the in-process tests use
 * (test/api/openapi-validator.ts), so both layers check by one rule.
 */
export class OpenApiValidator {
  private constructor(private readonly validator: DocumentValidator) {}

  static async load(request: APIRequestContext, documentPath: string): Promise<OpenApiValidator> {
    const response = await request.get(documentPath);
    expect(response.status()).toBe(200);
    return new OpenApiValidator(new DocumentValidator(await response.json()));
  }

  /** Checks the response and returns its parsed JSON body (or null for a non-JSON body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body was just validated against the document's schema; specs read it freely
  async check(method: string, pathTemplate: string, response: APIResponse): Promise<any> {
    const contentType = response.headers()["content-type"] ?? "";
    const body = contentType.includes("application/json") ? await response.json() : null;
    expect(() => this.validator.check(method, pathTemplate, { status: response.status(), contentType, body })).not.toThrow();
    return body;
  }
}
