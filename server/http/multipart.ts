import { Readable, Writable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import formidable, { errors as formidableErrors } from "formidable";

/**
 * Multipart parsing with formidable, streamed from a fetch Request, the file
 * kept in memory up to a hard limit (never on disk: an upload is processed in
 * the request and stored in the blob store).
 */
export interface ParsedMultipart {
  fields: Record<string, string[]>;
  files: Record<string, { filename: string | null; bytes: Buffer }[]>;
}

export class MultipartError extends Error {
  constructor(
    readonly kind: "too_large" | "invalid",
    message: string,
  ) {
    super(message);
  }
}

export async function parseMultipart(request: Request, limits: { maxFileBytes: number; maxFieldBytes: number }): Promise<ParsedMultipart> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) throw new MultipartError("invalid", "The request must be multipart/form-data");
  // Refuse early when the client announces more than we accept, before reading a byte.
  const announced = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(announced) && announced > limits.maxFileBytes + limits.maxFieldBytes + 64 * 1024) {
    throw new MultipartError("too_large", `The file exceeds the maximum upload size of ${limits.maxFileBytes} bytes`);
  }
  if (!request.body) throw new MultipartError("invalid", "The request has no body");

  const chunksByFile = new Map<object, Buffer[]>();
  const form = formidable({
    // The file, a metadata part sent with a content type, and one more, so that an extra part is our clear 400 and not a generic error.
    maxFiles: 3,
    maxFileSize: limits.maxFileBytes,
    maxTotalFileSize: limits.maxFileBytes + limits.maxFieldBytes,
    maxFields: 10,
    maxFieldsSize: limits.maxFieldBytes,
    allowEmptyFiles: true,
    minFileSize: 0,
    fileWriteStreamHandler: (file) => {
      const chunks: Buffer[] = [];
      chunksByFile.set(file as object, chunks);
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      });
    },
  });
  const nodeRequest = Object.assign(Readable.fromWeb(request.body as NodeReadableStream), {
    headers: Object.fromEntries(request.headers),
  });
  try {
    const [fields, files] = await form.parse(nodeRequest as never);
    const outFiles: ParsedMultipart["files"] = {};
    for (const [name, list] of Object.entries(files)) {
      outFiles[name] = (list ?? []).map((file) => ({
        filename: file.originalFilename ?? null,
        bytes: Buffer.concat(chunksByFile.get(file as object) ?? []),
      }));
    }
    const outFields: ParsedMultipart["fields"] = {};
    for (const [name, list] of Object.entries(fields)) outFields[name] = list ?? [];
    return { fields: outFields, files: outFiles };
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code === formidableErrors.biggerThanMaxFileSize || code === formidableErrors.biggerThanTotalMaxFileSize) {
      throw new MultipartError("too_large", `The file exceeds the maximum upload size of ${limits.maxFileBytes} bytes`);
    }
    if (code === formidableErrors.maxFilesExceeded) throw new MultipartError("invalid", "send exactly one file part");
    if (code === formidableErrors.maxFieldsSizeExceeded || code === formidableErrors.maxFieldsExceeded) {
      throw new MultipartError("invalid", "The form fields are too large");
    }
    throw new MultipartError("invalid", "The multipart body could not be parsed");
  }
}
