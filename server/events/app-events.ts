import { eventType } from "inngest";
import { z } from "zod";

/**
 * Every event the app emits, with the zod schema of its data. Functions use
 * the event types as triggers (the SDK validates incoming data against them)
 * and server/events/send-event.ts validates outgoing data before it is sent.
 */

/** A result and everything derived from it were committed (POST /results). */
export const ZResultStoredData = z.object({ resultId: z.number().int().positive() });
export const resultStored = eventType("result/stored", { schema: ZResultStoredData });

/** An export job was queued (server/exports/export-jobs.ts); its row holds what to build. */
export const ZExportRequestedData = z.object({ exportJobId: z.number().int().positive() });
export const exportRequested = eventType("export/requested", { schema: ZExportRequestedData });

/** A device file job (fetch or delete) was queued (server/devices/device-jobs.ts). */
export const ZDeviceJobRequestedData = z.object({ deviceJobId: z.number().int().positive() });
export const deviceJobRequested = eventType("device/job-requested", { schema: ZDeviceJobRequestedData });

/** The operator started a reprocessing run (server/reprocess/reprocess-runs.ts); its row holds the target and the cursor. */
export const ZReprocessRequestedData = z.object({ runId: z.number().int().positive() });
export const reprocessRequested = eventType("reprocess/requested", { schema: ZReprocessRequestedData });

/** A training's original file was stored, or its figures should be made again (server/trainings/). */
export const ZTrainingStoredData = z.object({ trainingId: z.number().int().positive() });
export const trainingStored = eventType("training/stored", { schema: ZTrainingStoredData });

/**
 * An endpoint has deliveries to send and no dispatch run was responsible for it (server/webhooks/dispatch.ts:
 * an emission, a test event, a redelivery, a run handing over, the stalled-endpoint sweep).
 */
export const ZWebhookEndpointDueData = z.object({ endpointId: z.number().int().positive() });
export const webhookEndpointDue = eventType("webhook/endpoint-due", { schema: ZWebhookEndpointDueData });

const eventTypes = [resultStored, exportRequested, deviceJobRequested, reprocessRequested, trainingStored, webhookEndpointDue] as const;

type AppEventType = (typeof eventTypes)[number];

/** An event the app may send: `{ name, data }` with the data its schema describes. */
export type AppEvent = {
  [E in AppEventType as E["name"]]: { name: E["name"]; data: z.input<NonNullable<E["schema"]>>; id?: string };
}[AppEventType["name"]];

export type AppEventName = AppEvent["name"];

/** Schemas by event name, for validation at the sending side. */
export const appEventSchemas = new Map<string, z.ZodType>(eventTypes.map((type) => [type.name, type.schema]));
