import { getCurrentUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { readForm } from "@/server/http/results-api/upload-route";
import { uploadResult } from "@/server/results/upload-result";

const STATUS = { invalid: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409, too_large: 413, unprocessable: 422, too_many_requests: 429 } as const;

/**
 * The web upload page's endpoint: same domain function as the results API,
 * signed in with the app session; field errors come back for the form.
 */
export async function POST(request: Request) {
  const user = await getCurrentUser();
  if (!user) return Response.json({ error: "unauthenticated", message: "Please sign in." }, { status: 401 });
  try {
    const form = await readForm(request);
    const data = await uploadResult(getDb(), { user, createdVia: "web", keyPairId: null, file: form.files.file?.[0] ?? null, metadata: form.fields.metadata?.[0] });
    return Response.json({ data }, { status: 201 });
  } catch (error) {
    if (error instanceof AppError) {
      return Response.json({ error: error.code, message: error.message, field_errors: error.fieldErrors ?? {} }, { status: STATUS[error.code] });
    }
    console.error("web upload failed", error);
    return Response.json({ error: "internal_error", message: "The upload failed. Please try again." }, { status: 500 });
  }
}
