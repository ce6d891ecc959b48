import type { ZodError } from "zod";

/**
 * What the kernel itself refuses, in neutral terms: each API's error
 * formatter turns a problem into its own code and body (docs/architecture.md
 * "One operation kernel"). Handlers keep throwing their API's own error or
 * a domain AppError.
 */
export type ProblemKind = "invalid_request" | "unauthenticated" | "not_found" | "method_not_allowed" | "rate_limited";

export class ApiProblem extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
    /** unauthenticated: whether a credential was sent at all (RFC 6750 challenges differ). */
    readonly credentialSent = false,
  ) {
    super(message);
    this.name = "ApiProblem";
  }
}

/** "limit: must be an integer from 1 to 100", "athletes[1].weight: Too big": the parameter first, then what is wrong. */
export function describeZodIssue(error: ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.reduce<string>(
    (acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    "",
  );
  if (!path || issue.message.startsWith(`${path} `) || issue.message.startsWith(`${path}:`)) return issue.message;
  return `${path}: ${issue.message}`;
}
