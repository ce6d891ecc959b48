import { AppError } from "@/server/errors";
import { parseIdempotencyKey } from "@/server/idempotency/idempotency";
import { uploadOnce } from "@/server/idempotency/upload-key";
import { readUploadForm } from "@/server/http/upload-form";
import { signedInRoute } from "@/server/http/signed-in-route";
import { uploadErrorInPeoplesWords } from "@/server/results/upload-messages";
import { uploadResult } from "@/server/results/upload-result";

/**
 * The web upload page's endpoint: the results API's domain function, signed
 * in with the app session. Errors come back in the form's words, with the
 * API's own sentence as `detail` (the page shows it behind "Details"). The
 * form sends an Idempotency-Key per chosen file: a double submit or a retry
 * after a lost answer gets the one result (docs/web-app.md "Upload: retries").
 */
export const POST = signedInRoute(async ({ db, request, user }) => {
  const key = parseIdempotencyKey(request.headers.get("idempotency-key"));
  let metadata: string | undefined;
  try {
    const form = await readUploadForm(request);
    metadata = form.metadata;
    const { data } = await uploadOnce(db, { scope: `web:user:${user.id}`, path: "/api/uploads", key }, form, (tx, stagedOriginal) =>
      uploadResult(tx, { user, createdVia: "web", keyPairId: null, file: form.file, metadata }, { stagedOriginal }),
    );
    return Response.json({ data }, { status: 201 });
  } catch (error) {
    // A repeated file keeps its own answer: the page links to the existing session.
    if (!(error instanceof AppError) || error.code === "conflict") throw error;
    const words = uploadErrorInPeoplesWords(error, metadata);
    throw new AppError(error.code, words.message, words.fieldErrors, { ...error.details, detail: error.message });
  }
});
