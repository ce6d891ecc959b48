/**
 * The Paddle Results SDK: typed clients for the results API (key pair) and
 * the Data API (OAuth), generated from their OpenAPI documents, with the few
 * helpers a client would otherwise write by hand.
 */
export {
  createResultsApiClient,
  uploadResult,
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
  type DeviceJob,
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
export type * as ResultsApi from "./generated/results-api.js";
export type * as DataApi from "./generated/data-api.js";
