/**
 * Webhook event types (docs/webhooks.md). Each names the scope a grant must
 * hold for the application to receive it: the scope that reads the resource
 * the event points at, so an event never tells an application about
 * something its token could not read. `authorization.revoked` needs none: it
 * is the last event of every grant. Payloads carry ids only, never health.
 */
export const WEBHOOK_EVENT_TYPES = {
  "session.created": { scope: "sessions:read", resource: "session", summary: "A session was processed and can be read." },
  "session.updated": {
    scope: "sessions:read",
    resource: "session",
    summary: "A session's figures changed (a correction or a reprocessing).",
  },
  "session.deleted": { scope: "sessions:read", resource: "session", summary: "A session was deleted." },
  "training.ready": { scope: "trainings:read", resource: "training", summary: "A training was processed and its sets can be read." },
  "training.updated": {
    scope: "trainings:read",
    resource: "training",
    summary: "A training's sets changed: a coach's correction, its undo, or a reprocessing.",
  },
  "training.failed": { scope: "trainings:read", resource: "training", summary: "A training's file could not be processed." },
  "export.completed": { scope: "exports:create", resource: "export", summary: "An export the application requested is ready to download." },
  "export.failed": { scope: "exports:create", resource: "export", summary: "An export the application requested could not be built." },
  "device_job.completed": {
    scope: "devices:files",
    resource: "device_job",
    summary: "A device file job the application requested finished.",
  },
  "authorization.revoked": {
    scope: null,
    resource: null,
    summary: "The person's grant to the application ended; no further event follows for it.",
  },
} as const satisfies Record<string, { scope: string | null; resource: string | null; summary: string }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const webhookEventTypeNames = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

/** Sent by "Send test event" only: no subject, no resource. */
export const TEST_EVENT_TYPE = "webhook.test" as const;

/** Resource ids a payload may carry, by event type (the consumer fetches the rest with its token). */
export interface WebhookResourceIds {
  session_id?: number;
  training_id?: number;
  export_id?: string;
  device_job_id?: string;
}

/** One example payload per type, for the docs and OpenAPI (ids and sub are made up). */
export function exampleWebhookPayload(type: WebhookEventType | typeof TEST_EVENT_TYPE): Record<string, unknown> {
  const ids: Record<string, WebhookResourceIds> = {
    session: { session_id: 1287 },
    training: { training_id: 311 },
    export: { export_id: "exp_7QmZ4vX2LkP9sT1aB3cD5eF" },
    device_job: { device_job_id: "dj_4TnR8wQ1ZxC6vB9mK2pL7hJ" },
  };
  if (type === TEST_EVENT_TYPE) return { type, timestamp: "2026-05-04T07:31:09.412Z", data: {} };
  const resource = WEBHOOK_EVENT_TYPES[type].resource;
  return {
    type,
    timestamp: "2026-05-04T07:31:09.412Z",
    data: { subject: "Jr2cJmWc0jV9dE1x3oQp5uYbLk8sH4tG6aN7fZ2wRqM", ...(resource ? ids[resource] : {}) },
  };
}
