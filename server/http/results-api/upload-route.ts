import { getEnv } from "../../config/env";
import { AppError } from "../../errors";
import { uploadResult } from "../../results/upload-result";
import { isHttpsRequest } from "../https";
import { MultipartError, parseMultipart } from "../multipart";
import { ResultsApiError } from "./errors";
import { MAX_METADATA_BYTES, MAX_UPLOAD_BYTES } from "./limits";
import { withKeyPair } from "./with-key-pair";

/** POST /results: upload and process a session file (201 with the upload response). */
export const uploadResultRoute = withKeyPair({ auth: "secret", extraLimit: "upload" }, async (ctx) => {
  if (!isHttpsRequest(ctx.request, getEnv().TRUST_PROXY)) throw new ResultsApiError("forbidden", "Uploads must be made over HTTPS");
  if (!ctx.user.canCreateSessions) throw new ResultsApiError("forbidden", "Your role does not allow creating sessions (permission accesoNuevo)");
  const form = await readForm(ctx.request);
  const data = await uploadResult(ctx.db, {
    user: ctx.user,
    createdVia: "api",
    keyPairId: ctx.keyPairId,
    applicationId: ctx.applicationId,
    file: form.files.file?.[0] ?? null,
    metadata: form.fields.metadata?.[0],
  });
  return { status: 201, body: { data } };
});

/** Multipart with formidable, mapped to the documented 400 and 413 errors. */
export async function readForm(request: Request) {
  try {
    const form = await parseMultipart(request, { maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: MAX_METADATA_BYTES });
    if ((form.files.file?.length ?? 0) > 1) throw new AppError("invalid", "send exactly one file part");
    return form;
  } catch (error) {
    if (error instanceof MultipartError) throw new AppError(error.kind === "too_large" ? "too_large" : "invalid", error.message);
    throw error;
  }
}
