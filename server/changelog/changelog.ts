/**
 * The integrator-facing changelog (docs/changelog.md, the portal's
 * /developer/changelog): one entry per change an integrator can see — new
 * operations, fields, headers, webhooks, limits, behaviour — newest first,
 * with its date. One source of truth: the portal page renders this list and
 * docs/changelog.md is `changelogMarkdown()` of it, which a test checks.
 * Both APIs stay version 1 (OpenAPI `info.version` 1.0.0, as the
 * specification says): every change listed here is additive.
 */
export type ChangelogArea = "Results API" | "Data API" | "Webhooks" | "OAuth" | "SDK" | "Portal" | "Both APIs";

export interface ChangelogEntry {
  /** YYYY-MM-DD, the day the change reached main. */
  date: string;
  area: ChangelogArea;
  title: string;
  /** One or two sentences; `code` in backticks. */
  body: string;
  /** The doc that records it, relative to docs/. */
  doc?: string;
}

export const API_VERSION = "1.0.0";

export const CHANGELOG: ChangelogEntry[] = [
  {
    date: "2026-12-04",
    area: "Results API",
    title: "Test keys and the Paddle-Key-Mode header",
    body: "A results API key pair acting as an application's sandbox person is made from the application's portal page in one action; it reaches only the sandbox's simulated data. Every answer to a recognised key carries `Paddle-Key-Mode: test` or `live`.",
    doc: "sandbox.md",
  },
  {
    date: "2026-12-04",
    area: "Webhooks",
    title: "Event forwarder for a developer's machine",
    body: "A listen token made on the application's portal page lets the SDK's forwarder receive the application's events over a long-lived connection and post each one, signed as a real delivery, to a local URL: no inbound connection needed.",
    doc: "webhooks.md",
  },
  {
    date: "2026-12-04",
    area: "Webhooks",
    title: "Delivery log that explains itself",
    body: "Each delivery in the portal shows the request as sent, the response (status, headers, the first 4 KB of the body), the duration and the error in words; deliveries filter by event type, status and endpoint, and the application's events are listed with their deliveries.",
    doc: "webhooks.md",
  },
  {
    date: "2026-12-04",
    area: "Both APIs",
    title: "Named models in the OpenAPI documents",
    body: 'Request and response bodies are named `components/schemas` referenced with `$ref`, shared parameters and error answers are `components/parameters` and `components/responses`, and both documents lint clean under Redocly\'s recommended rules; the SDK exports the named types (`Session`, `Split`, `TrainingSet`, …). The `important` filter of `GET /sessions` is declared `boolean`, as it always behaved (the SDK typed it `"true" | "false"`).',
    doc: "openapi.md",
  },
  {
    date: "2026-12-04",
    area: "Webhooks",
    title: "Per-endpoint ordering, and loopback endpoints for local runs",
    body: "An endpoint's first attempts are sent one at a time in the order the events were committed; retries and redeliveries may come later, so deduplicate by `webhook-id` and order by the payload's `timestamp`. A local server started by `npm run quickstart` accepts `http://127.0.0.1:…` and `http://localhost:…` endpoints; elsewhere both are refused with one message that names the way to allow them.",
    doc: "webhooks.md",
  },
  {
    date: "2026-12-04",
    area: "SDK",
    title: "Uploads are retried safely",
    body: "`uploadResult` sends an `Idempotency-Key` on every upload (yours, or one from `newIdempotencyKey()`) and retries a lost connection, or a 503 or 429 with `Retry-After`, under the same key with bounded backoff; `retry: false` sends once.",
    doc: "sdk.md",
  },
  {
    date: "2026-12-04",
    area: "Both APIs",
    title: "A dropped database connection",
    body: "A read whose database connection dies is retried inside the request; a write answers `503` with `Retry-After` only when it did not commit, and its result when it did.",
    doc: "architecture.md",
  },
  {
    date: "2026-12-02",
    area: "Webhooks",
    title: "training.updated",
    body: "Sent when a training's sets are corrected, a correction is undone, or a ready training is reprocessed.",
    doc: "webhooks.md",
  },
  {
    date: "2026-11-27",
    area: "Webhooks",
    title: "Signed webhooks",
    body: "Standard Webhooks deliveries to an application's endpoints: `session.created`, `session.updated`, `session.deleted`, `training.ready`, `training.failed`, `export.completed`, `export.failed`, `device_job.completed`, `authorization.revoked`, scoped like reads; retries for a day, disabling after five days of failures, secret rotation with overlap. Described in the Data API document's `webhooks`.",
    doc: "webhooks.md",
  },
  {
    date: "2026-11-27",
    area: "Data API",
    title: "Split uncertainty",
    body: "Split items carry `elapsed_uncertainty_s` and `split_uncertainty_s` (95 %), summaries `duration_uncertainty_s`, and `POST /sessions/compare` adds `split_delta_within_noise` and `elapsed_delta_within_noise`; null for efforts processed before the estimate, until reprocessing.",
    doc: "data-api.md",
  },
  {
    date: "2026-11-27",
    area: "Data API",
    title: "Trainings (interval sets)",
    body: "Nine operations under `trainings:read`: trainings, their sets, summary, timeline, set series, strokes and splits, set comparison and `POST /trainings/{id}/exports`; `needs_review` on a training and `corrected` on each set.",
    doc: "data-api.md",
  },
  {
    date: "2026-11-27",
    area: "Data API",
    title: "Workout templates and session compare",
    body: "`GET /workout-templates`, `GET /workout-templates/{template_id}`, `POST /workout-templates/import` (every problem by JSON path) and `POST /sessions/compare` (2 to 9 sessions on a common distance grid).",
    doc: "workouts.md",
  },
  {
    date: "2026-11-27",
    area: "Data API",
    title: "Sandbox people and /me's sandbox member",
    body: 'An application\'s owner makes a sandbox person with a simulated season, signs in as it and authorizes against it; `GET /me` answers `"sandbox": true` for its tokens (absent for everyone else).',
    doc: "sandbox.md",
  },
  {
    date: "2026-11-27",
    area: "SDK",
    title: "@paddle-results/sdk",
    body: "A typed TypeScript client of both APIs: types generated from the OpenAPI documents, key-pair and OAuth credentials with refresh, paging iterators, job polling, downloads, webhook verification and `PaddleApiError` with the request id.",
    doc: "sdk.md",
  },
  {
    date: "2026-11-27",
    area: "OAuth",
    title: "One token for the Data API and userinfo",
    body: "A Data API token issued with `openid` also works at the userinfo endpoint; no `resource` parameter is needed; a request with `openid` and no `nonce` is refused with `invalid_request` saying what to send.",
    doc: "oauth.md",
  },
  {
    date: "2026-11-23",
    area: "Results API",
    title: "Idempotency-Key on uploads",
    body: "`POST /results` takes an `Idempotency-Key`: the same key, file and metadata within 24 hours answer the first upload again; another upload under the key is `409 idempotency_key_reused`.",
    doc: "results-api.md",
  },
  {
    date: "2026-11-23",
    area: "Data API",
    title: "Exports, device files and replay embeds",
    body: "`POST /sessions/{id}/exports` (202 with `Location`, `Retry-After`, `Idempotency-Key`; JSON, PDF, XLSX, FIT, TCX), device file fetch jobs, and replay embeds with single-use launch tokens and leases.",
    doc: "exports.md",
  },
  {
    date: "2026-11-23",
    area: "Data API",
    title: "Session analyses",
    body: "`GET /sessions/{id}/analytics/{analysis}`: eleven analyses, and comparable sessions, progression and personal bests across sessions.",
    doc: "analytics.md",
  },
  {
    date: "2026-11-23",
    area: "Both APIs",
    title: "503 on a lost database connection",
    body: "Answered `503 service_unavailable` with `Retry-After: 1` instead of a 500; both documents list it.",
    doc: "architecture.md",
  },
  {
    date: "2026-11-23",
    area: "Data API",
    title: "Data API version 1",
    body: "The read-only OAuth 2.1 API: identity, sessions (list, summary, series, splits, strokes), roster, tracks, teams, equipment, records, health and devices, with signed cursors, three surfaces and a privacy projection.",
    doc: "data-api.md",
  },
  {
    date: "2026-11-22",
    area: "Results API",
    title: "Results API version 1",
    body: "Key pairs, upload with processing in the request, results with strokes, PDF reports, reference tables, tracks and athletes, per-key rate limits.",
    doc: "results-api.md",
  },
];

/** docs/changelog.md, exactly: the portal's entries as markdown, newest first. */
export function changelogMarkdown(entries: ChangelogEntry[] = CHANGELOG): string {
  const lines = [
    "# Changelog",
    "",
    "What an integrator can see change in the two APIs, the webhooks, OAuth and",
    "the SDK, newest first. Both APIs stay version 1 (OpenAPI `info.version`",
    `${API_VERSION}): every change is additive. The developer portal shows the`,
    "same list at `/developer/changelog`; both come from",
    "`server/changelog/changelog.ts`, and a test checks this file is its",
    "rendering (regenerate with `npx tsx scripts/changelog.ts`).",
  ];
  for (const date of [...new Set(entries.map((e) => e.date))]) {
    lines.push("", `## ${date}`, "");
    for (const e of entries.filter((x) => x.date === date))
      lines.push(`- **${e.area}: ${e.title}.** ${e.body}${e.doc ? ` ([${e.doc}](${e.doc}))` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}
