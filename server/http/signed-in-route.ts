import { getCurrentUser } from "../auth/current-user";
import { getDb, type Db } from "../db/client";
import { AppError } from "../errors";
import type { SessionUser } from "../users/users";

/**
 * The web application's plain routes (the upload endpoint, the session
 * report download): one wrapper for the app session and the error mapping,
 * as the kernel is for the public APIs. Body of an error:
 * `{error, message, field_errors, …details}` — the upload form shows
 * `field_errors` next to their fields and `message` above the form.
 */
export interface SignedInContext {
  db: Db;
  request: Request;
  url: URL;
  user: SessionUser;
  params: Record<string, string>;
}

const STATUS = { invalid: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409, too_large: 413, unprocessable: 422, too_many_requests: 429 } as const;

export function signedInRoute(handler: (ctx: SignedInContext) => Promise<Response>) {
  return async (request: Request, routeContext?: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const user = await getCurrentUser();
    if (!user) return Response.json({ error: "unauthenticated", message: "Please sign in.", field_errors: {} }, { status: 401 });
    try {
      const params = routeContext ? await routeContext.params : {};
      return await handler({ db: getDb(), request, url: new URL(request.url), user, params });
    } catch (error) {
      if (error instanceof AppError) {
        return Response.json({ error: error.code, message: error.message, field_errors: error.fieldErrors ?? {}, ...error.details }, { status: STATUS[error.code] });
      }
      console.error(`web route ${new URL(request.url).pathname} failed`, error);
      return Response.json({ error: "internal_error", message: "Something went wrong. Please try again.", field_errors: {} }, { status: 500 });
    }
  };
}
