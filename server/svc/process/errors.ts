/**
 * Raised when a valid file holds no usable effort (no start, too short for the
 * requested distance). The APIs answer 422, like an invalid file.
 */
export class ProcessingError extends Error {
  constructor(
    readonly code: "no_effort" | "effort_incomplete" | "no_speed",
    message: string,
  ) {
    super(message);
    this.name = "ProcessingError";
  }
}
