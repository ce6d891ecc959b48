import { getCurrentUser } from "../auth/current-user";
import { getDb, type Db } from "../db/client";
import { AppError } from "../errors";
import { IdempotencyKeyReusedError } from "../idempotency/idempotency";
import type { SessionUser } from "../users/users";

/**
 * The web application's plain routes (the upload endpoints, the downloads of
 * a session report, an export, a device original and the replay artifact):
 * one wrapper for the app session and the error mapping, as the kernel is
 * for the public APIs. Body of an error: `{error, message, field_errors,
 * …details}` — the upload form shows `field_errors` next to their fields and
 * `message` above the form. Errors depend on the session: never cached.
 */
export interface SignedInContext {
  db: Db;
  request: Request;
  url: URL;
  user: SessionUser;
  params: Record<string, string>;
}

export interface SignedInOptions {
  /** What a signed-out request gets instead of the 401, e.g. the route's own 404 where not signed in, absent and not yours must be one answer. */
  whenSignedOut?: AppError;
}

const NO_STORE = { "Cache-Control": "no-store" };
const STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  too_many_requests: 429,
} as const;

function errorResponse(error: AppError): Response {
  return Response.json(
    { error: error.code, message: error.message, field_errors: error.fieldErrors ?? {}, ...error.details },
    { status: STATUS[error.code], headers: NO_STORE },
  );
}

export function signedInRoute(handler: (ctx: SignedInContext) => Promise<Response>, options: SignedInOptions = {}) {
  return async (request: Request, routeContext?: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const user = await getCurrentUser();
    if (!user) return errorResponse(options.whenSignedOut ?? new AppError("unauthenticated", "Please sign in."));
    try {
      const params = routeContext ? await routeContext.params : {};
      return await handler({ db: getDb(), request, url: new URL(request.url), user, params });
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      // An upload's Idempotency-Key sent again with another file or other details (docs/web-app.md "Upload: retries").
      if (error instanceof IdempotencyKeyReusedError)
        return Response.json(
          {
            error: "idempotency_key_reused",
            message: "This upload was already sent with another file or other details. Choose the file again to upload it anew.",
            field_errors: {},
            detail: error.message,
          },
          { status: 409, headers: NO_STORE },
        );
      console.error(`web route ${new URL(request.url).pathname} failed`, error);
      return Response.json(
        { error: "internal_error", message: "Something went wrong. Please try again.", field_errors: {} },
        { status: 500, headers: NO_STORE },
      );
    }
  };
}
