import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getApplication } from "@/server/applications/applications";
import { loadOr404, parseId } from "@/app/_lib/params";
import { listEndpoints } from "@/server/webhooks/endpoints";
import {
  DELIVERY_STATUSES,
  LOG_EVENT_TYPES,
  LOG_RETENTION_DAYS,
  listApplicationEvents,
  listDeliveryLog,
  type DeliveryLogFilters,
} from "@/server/webhooks/delivery-log";
import { DeliveryLog } from "./delivery-log";

export const metadata: Metadata = { title: "Webhook log" };

const one = (value: string | string[] | undefined) => (typeof value === "string" && value ? value : undefined);

/** The application's webhook delivery log and events (docs/webhooks.md "The delivery log"). */
export default async function WebhookLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id: raw } = await params;
  const user = await requireUser(`/developer/applications/${raw}/webhooks`);
  const id = parseId(raw);
  if (id === null) notFound();
  const db = getDb();
  const app = await loadOr404(() => getApplication(db, user.id, id));
  const query = await searchParams;
  // Unknown filter values are dropped rather than refused: a stale link still opens the log.
  const filters: DeliveryLogFilters = {
    eventType: LOG_EVENT_TYPES.find((t) => t === one(query.type)),
    status: DELIVERY_STATUSES.find((s) => s === one(query.status)),
    endpointId: one(query.endpoint)?.slice(0, 64),
  };
  const [endpoints, log, events] = await Promise.all([
    listEndpoints(db, user.id, app.id),
    listDeliveryLog(db, user.id, app.id, filters),
    listApplicationEvents(db, user.id, app.id, { eventType: filters.eventType }),
  ]);
  return (
    <>
      <p>
        <Link href={`/developer/applications/${app.id}`}>← {app.name}</Link>
      </p>
      <h1>Webhook log</h1>
      <p className="notice" data-testid="webhook-retention">
        Events, their deliveries and every attempt are kept for {LOG_RETENTION_DAYS} days after the event was created; an hourly clean-up
        then deletes them (a redelivery does not extend that).
      </p>
      <p>
        Each delivery opens to its attempts: the request as sent (URL, headers with the signature, body), the response (status, headers, the
        first 4 KB of the body) and the time it took, or why there was no response.
      </p>
      <DeliveryLog
        applicationId={app.id}
        endpoints={endpoints.map((e) => ({ id: e.id, url: e.url }))}
        eventTypes={LOG_EVENT_TYPES}
        statuses={[...DELIVERY_STATUSES]}
        initialFilters={filters}
        initialLog={log}
        initialEvents={events}
      />
    </>
  );
}
