/**
 * The Paddle Results SDK: typed clients for the results API (key pair) and
 * the Data API (OAuth), generated from their OpenAPI documents, with the few
 * helpers a client would otherwise write by hand.
 */
export {
  createResultsApiClient,
  uploadResult,
  newIdempotencyKey,
  type UploadRetryOptions,
  type ResultsApiClient,
  type ResultsApiOptions,
  type UploadMetadata,
  type UploadResponse,
} from "./results-api.js";
export { createDataApiClient, type DataApiClient, type DataApiOptions } from "./data-api.js";
export { PaddleApiError, isPaddleApiError, unwrap, type CallResult } from "./errors.js";
export { paginateCursor, paginatePages } from "./paginate.js";
export {
  pollJob,
  waitForExport,
  waitForDeviceJob,
  downloadExport,
  downloadDeviceFile,
  JobFailedError,
  JobTimeoutError,
  type ExportJob,
  type DownloadedFile,
  type PollOptions,
} from "./jobs.js";
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type VerifiedWebhook,
  type WebhookEvent,
  type WebhookFailure,
} from "./webhooks.js";
// Every named model of both documents as a type of its own: Session, Split, Stroke, Training, Export, ApiError …
export type * from "./generated/models.js";
export type * as ResultsApi from "./generated/results-api.js";
export type * as DataApi from "./generated/data-api.js";
