import { AppError } from "@/server/errors";
import { readUploadForm } from "@/server/http/upload-form";
import { signedInRoute } from "@/server/http/signed-in-route";
import { uploadErrorInPeoplesWords } from "@/server/results/upload-messages";
import { uploadResult } from "@/server/results/upload-result";

/**
 * The web upload page's endpoint: the results API's domain function, signed
 * in with the app session. Errors come back in the form's words, with the
 * API's own sentence as `detail` (the page shows it behind "Details").
 */
export const POST = signedInRoute(async ({ db, request, user }) => {
  let metadata: string | undefined;
  try {
    const form = await readUploadForm(request);
    metadata = form.metadata;
    const data = await uploadResult(db, { user, createdVia: "web", keyPairId: null, file: form.file, metadata });
    return Response.json({ data }, { status: 201 });
  } catch (error) {
    // A repeated file keeps its own answer: the page links to the existing session.
    if (!(error instanceof AppError) || error.code === "conflict") throw error;
    const words = uploadErrorInPeoplesWords(error, metadata);
    throw new AppError(error.code, words.message, words.fieldErrors, { ...error.details, detail: error.message });
  }
});
