/**
 * Upload size limit (docs/results-api.md): a 6-hour recording, the longest
 * the format allows, deflates to well under 40 MiB; 64 MiB leaves room.
 */
export const MAX_UPLOAD_BYTES = Number(process.env.RESULTS_API_MAX_UPLOAD_BYTES ?? 64 * 1024 * 1024);
export const MAX_METADATA_BYTES = 64 * 1024;
