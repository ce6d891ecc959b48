/**
 * How every route delivers a replay artifact (embed, session page, share
 * page): the stored gzip bytes unchanged, as a gzip body. Not
 * Content-Encoding: Next.js drops that header from route responses, and the
 * gzip is part of the artifact, not a transfer encoding (docs/replay.md).
 */
export function gzipArtifactResponse(artifact: { stream: ReadableStream<Uint8Array>; byteSize: number }): Response {
  // Streamed from the blob store, never whole in memory (docs/blobs.md).
  return new Response(artifact.stream, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(artifact.byteSize),
      "Cache-Control": "no-store",
      "Cross-Origin-Resource-Policy": "same-origin",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
