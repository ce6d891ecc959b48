/**
 * The one error a `.svc` reader raises (docs/svc-format.md "Validity rules").
 * The public message never varies; `code` and `reason` are for logs.
 */
export type InvalidSvcCode =
  | "too_short"
  | "bad_magic"
  | "bad_version"
  | "bad_header_length"
  | "bad_rate"
  | "bad_flags"
  | "unknown_key"
  | "tag_mismatch"
  | "not_deflate"
  | "inflate_too_large"
  | "chunk_overrun"
  | "unknown_chunk"
  | "bad_chunk_version"
  | "block_overrun"
  | "block_order"
  | "no_end"
  | "after_end"
  | "totals_mismatch"
  | "too_brief"
  | "too_long"
  | "malformed";

export class InvalidSvcError extends Error {
  constructor(
    readonly code: InvalidSvcCode,
    /** Precise reason, for logs only. */
    readonly reason: string,
  ) {
    super("not a valid device session");
    this.name = "InvalidSvcError";
  }
}
