/**
 * How every route delivers a replay artifact (embed, session page, share
 * page): the stored gzip bytes unchanged, as a gzip body. Not
 * Content-Encoding: Next.js drops that header from route responses, and the
 * gzip is part of the artifact, not a transfer encoding (docs/replay.md).
 */
export function gzipArtifactResponse(gzipBytes: Uint8Array): Response {
  return new Response(new Uint8Array(gzipBytes), {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(gzipBytes.byteLength),
      "Cache-Control": "no-store",
      "Cross-Origin-Resource-Policy": "same-origin",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
