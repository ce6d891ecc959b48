import { buildExportFunction } from "./functions/build-export";
import { buildReplayArtifactFunction } from "./functions/build-replay-artifact";
import { dispatchWebhooksFunction } from "./functions/dispatch-webhooks";
import { reprocessStoredFilesFunction } from "./functions/reprocess-stored-files";
import { processTrainingFunction } from "./functions/process-training";
import { runDeviceJobFunction } from "./functions/run-device-job";

/**
 * Every background function of the app: served at /api/inngest for a real
 * Inngest server and executed by the embedded runner otherwise.
 */
export const inngestFunctions = [
  buildReplayArtifactFunction,
  buildExportFunction,
  runDeviceJobFunction,
  reprocessStoredFilesFunction,
  processTrainingFunction,
  dispatchWebhooksFunction,
];

export { inngest } from "./client";
