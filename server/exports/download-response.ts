/**
 * The HTTP response of a finished export file, shared by the Data API and
 * the web download so both send the same bytes and headers.
 */
export function exportFileResponse(file: {
  stream: ReadableStream<Uint8Array>;
  byteSize: number;
  contentType: string;
  filename: string;
}): Response {
  const ascii = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  // Streamed from the blob store (docs/blobs.md): the file is never whole in memory.
  return new Response(file.stream, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.byteSize),
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
