import { getEnv } from "../config/env";
import { AppError } from "../errors";
import { MultipartError, parseMultipart } from "./multipart";

/** Largest metadata part: far above any real crew list. */
export const MAX_METADATA_BYTES = 64 * 1024;

/**
 * Upload size limit (docs/results-api.md): a 6-hour recording, the longest
 * the format allows, deflates to well under 40 MiB; 64 MiB leaves room.
 */
export const maxUploadBytes = () => getEnv().RESULTS_API_MAX_UPLOAD_BYTES;

export interface UploadForm {
  file: { filename: string | null; bytes: Buffer } | null;
  /** The metadata part's text, whether sent as a plain field or as a part with a content type. */
  metadata: string | undefined;
}

/**
 * The upload's multipart body (results API and web upload page alike), mapped
 * to the documented 400 and 413 errors. `metadata` may come as a plain field
 * or, as OpenAPI 3.1's default multipart encoding and
 * `curl -F 'metadata=<m.json;type=application/json'` send it, as a part with
 * `Content-Type: application/json` (which formidable hands over as a file).
 */
export async function readUploadForm(request: Request): Promise<UploadForm> {
  try {
    const form = await parseMultipart(request, { maxFileBytes: maxUploadBytes(), maxFieldBytes: MAX_METADATA_BYTES });
    if ((form.files.file?.length ?? 0) > 1) throw new AppError("invalid", "send exactly one file part");
    const typedMetadata = form.files.metadata ?? [];
    if (typedMetadata.length + (form.fields.metadata?.length ?? 0) > 1) throw new AppError("invalid", "send exactly one metadata part");
    if (typedMetadata[0] && typedMetadata[0].bytes.length > MAX_METADATA_BYTES)
      throw new AppError("invalid", `metadata must be at most ${MAX_METADATA_BYTES} bytes`);
    const metadata =
      form.fields.metadata?.[0] ??
      (typedMetadata[0] ? new TextDecoder("utf-8", { fatal: false }).decode(typedMetadata[0].bytes) : undefined);
    return { file: form.files.file?.[0] ?? null, metadata };
  } catch (error) {
    if (error instanceof MultipartError) throw new AppError(error.kind === "too_large" ? "too_large" : "invalid", error.message);
    throw error;
  }
}
