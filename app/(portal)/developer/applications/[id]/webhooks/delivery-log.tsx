"use client";

import { usePathname, useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { FormError, SelectField } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import type { AttemptView, DeliveryLogFilters, DeliveryLogRow, EventLogRow } from "@/server/webhooks/delivery-log";

type Log = { deliveries: DeliveryLogRow[]; nextBefore: number | null };
type Events = { events: EventLogRow[]; nextBefore: number | null };
type Endpoint = { id: string; url: string };

const when = (iso: string) => `${iso.replace("T", " ").slice(0, 19)} UTC`;
const messageOf = (e: unknown) => (e instanceof Error ? e.message : "Could not reach the server. Try again.");

function Headers({ headers }: { headers: [string, string][] }) {
  if (!headers.length) return <p className="muted">No headers.</p>;
  return <pre className="log-pre">{headers.map(([name, value]) => `${name}: ${value}`).join("\n")}</pre>;
}

function Attempt({ attempt }: { attempt: AttemptView }) {
  const { request, response, error } = attempt;
  return (
    <section className="log-attempt" aria-label={`Attempt ${attempt.number}`}>
      <h4>
        Attempt {attempt.number} · {when(attempt.startedAt)} · {attempt.durationMs} ms
      </h4>
      {error ? (
        <p className="form-error" role="note">
          {error.words}
          {error.detail && !error.words.includes(error.detail) ? <span className="muted"> ({error.detail})</span> : null}
        </p>
      ) : null}
      <h5>Request</h5>
      <p>
        <code>POST {request.url}</code>
      </p>
      <Headers headers={request.headers} />
      <pre className="log-pre" aria-label="Request body">
        {request.body}
      </pre>
      <h5>Response</h5>
      {response ? (
        <>
          <p>
            Status <strong>{response.status}</strong>
            {response.url ? (
              <>
                {" "}
                from <code>{response.url}</code> (after redirects)
              </>
            ) : null}
          </p>
          <Headers headers={response.headers} />
          <p className="hint">
            {response.bodyKind === "binary"
              ? `Body: ${response.bodyBytes} bytes that are not text, shown as hex (first 256)`
              : `Body: ${response.bodyBytes} bytes`}
            {response.truncated ? "; only the first 4 KB are kept" : ""}
          </p>
          {response.bodyBytes ? (
            <pre className="log-pre" aria-label="Response body">
              {response.body}
            </pre>
          ) : null}
        </>
      ) : (
        <p className="muted">No response.</p>
      )}
    </section>
  );
}

function Delivery({
  applicationId,
  delivery,
  onRedelivered,
}: {
  applicationId: number;
  delivery: DeliveryLogRow;
  onRedelivered: () => void;
}) {
  const [attempts, setAttempts] = useState<AttemptView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    try {
      setAttempts(await trpc.webhooks.attempts.query({ applicationId, deliveryId: delivery.id }));
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const outcome =
    delivery.lastResponseStatus !== null ? `${delivery.lastResponseStatus}` : delivery.attempts ? "no response" : "not sent yet";
  return (
    <li>
      <details
        className="log-delivery card"
        onToggle={(e) => {
          if ((e.target as HTMLDetailsElement).open && !attempts) void load();
        }}
      >
        <summary>
          <code>{delivery.eventType}</code>{" "}
          <span className={`badge ${delivery.status === "succeeded" ? "" : "warn"}`}>{delivery.status}</span> {outcome} ·{" "}
          {delivery.lastDurationMs === null ? "—" : `${delivery.lastDurationMs} ms`} · {delivery.attempts}{" "}
          {delivery.attempts === 1 ? "attempt" : "attempts"} · {when(delivery.createdAt)}
          <br />
          <span className="muted">
            to <code>{delivery.endpoint.url}</code>
          </span>
          {delivery.lastError ? <span className="log-error">{delivery.lastError}</span> : null}
        </summary>
        <div className="stack">
          <p className="muted">
            webhook-id <code>{delivery.messageId}</code>
            {delivery.nextAttemptAt ? ` · next attempt ${when(delivery.nextAttemptAt)}` : ""}
          </p>
          <FormError message={error} />
          {attempts === null && !error ? <p className="muted">Loading attempts…</p> : null}
          {attempts?.length === 0 ? <p className="muted">No attempt was made.</p> : null}
          {attempts?.map((a) => (
            <Attempt key={a.number} attempt={a} />
          ))}
          <div>
            <button
              type="button"
              className="secondary"
              aria-label={`Redeliver ${delivery.eventType} delivery ${delivery.id}`}
              onClick={async () => {
                setError(null);
                try {
                  await trpc.webhooks.redeliver.mutate({ applicationId, deliveryId: delivery.id });
                  onRedelivered();
                } catch (e) {
                  setError(messageOf(e));
                }
              }}
            >
              Redeliver
            </button>
          </div>
        </div>
      </details>
    </li>
  );
}

function EventList({ applicationId, initial, eventType }: { applicationId: number; initial: Events; eventType?: string }) {
  const [more, setMore] = useState<Events | null>(null);
  const events = [...initial.events, ...(more?.events ?? [])];
  const nextBefore = more ? more.nextBefore : initial.nextBefore;
  return (
    <>
      {events.length === 0 ? <p className="muted">No events in the last days kept.</p> : null}
      <ul className="log-list">
        {events.map((e) => (
          <li key={e.messageId}>
            <details className="card log-delivery">
              <summary>
                <code>{e.type}</code> · {when(e.createdAt)} ·{" "}
                {e.deliveries.length === 0
                  ? "no endpoint received it"
                  : e.deliveries.map((d) => `${d.status}${d.lastResponseStatus === null ? "" : ` ${d.lastResponseStatus}`}`).join(", ")}
              </summary>
              <p className="muted">
                webhook-id <code>{e.messageId}</code>
              </p>
              <pre className="log-pre" aria-label="Event payload">
                {e.payload}
              </pre>
              {e.deliveries.length ? (
                <ul>
                  {e.deliveries.map((d) => (
                    <li key={d.id}>
                      {d.status} to <code>{d.endpoint.url}</code> ({d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                      {d.lastResponseStatus === null ? "" : `, last answer ${d.lastResponseStatus}`})
                    </li>
                  ))}
                </ul>
              ) : (
                <p>No endpoint received this event (none subscribed to its type, or the endpoint was deleted).</p>
              )}
            </details>
          </li>
        ))}
      </ul>
      {nextBefore ? (
        <button
          type="button"
          className="secondary"
          onClick={async () => {
            const page = await trpc.webhooks.events.query({ applicationId, eventType: eventType as never, before: nextBefore });
            setMore({ events: [...(more?.events ?? []), ...page.events], nextBefore: page.nextBefore });
          }}
        >
          Older events
        </button>
      ) : null}
    </>
  );
}

type FilterKey = "eventType" | "status" | "endpointId";

function Filters(props: {
  filters: DeliveryLogFilters;
  change: (key: FilterKey, value: string) => void;
  endpoints: Endpoint[];
  eventTypes: string[];
  statuses: string[];
}) {
  const { filters, change } = props;
  const all = (label: string, values: { value: string; label: string }[]) => [{ value: "", label }, ...values];
  const selects: { key: FilterKey; label: string; name: string; options: { value: string; label: string }[] }[] = [
    {
      key: "eventType",
      label: "Event type",
      name: "log-type",
      options: all(
        "All event types",
        props.eventTypes.map((t) => ({ value: t, label: t })),
      ),
    },
    {
      key: "status",
      label: "Status",
      name: "log-status",
      options: all(
        "Any status",
        props.statuses.map((s) => ({ value: s, label: s })),
      ),
    },
    {
      key: "endpointId",
      label: "Endpoint",
      name: "log-endpoint",
      options: all(
        "All endpoints",
        props.endpoints.map((e) => ({ value: e.id, label: e.url })),
      ),
    },
  ];
  return (
    <form className="row log-filters" aria-label="Filter deliveries" onSubmit={(e) => e.preventDefault()}>
      {selects.map((select) => (
        <SelectField
          key={select.key}
          label={select.label}
          name={select.name}
          value={filters[select.key] ?? ""}
          onChange={(e) => change(select.key, e.target.value)}
          options={select.options}
        />
      ))}
    </form>
  );
}

/** The delivery log with its filters, and the application's events (docs/webhooks.md "The delivery log"). */
export function DeliveryLog(props: {
  applicationId: number;
  endpoints: Endpoint[];
  eventTypes: string[];
  statuses: string[];
  initialFilters: DeliveryLogFilters;
  initialLog: Log;
  initialEvents: Events;
}) {
  const { applicationId } = props;
  const router = useRouter();
  const pathname = usePathname();
  const [filters, setFilters] = useState(props.initialFilters);
  const [log, setLog] = useState(props.initialLog);
  const [events, setEvents] = useState(props.initialEvents);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  // Filters change faster than answers come: only the latest request's answer is shown.
  const latest = useRef({ request: 0, filters: props.initialFilters });
  const reload = async (next: DeliveryLogFilters, append = false) => {
    const request = ++latest.current.request;
    const current = () => request === latest.current.request;
    setPending(true);
    setError(null);
    try {
      const page = await trpc.webhooks.log.query({ applicationId, ...(next as object) });
      const events = append ? null : await trpc.webhooks.events.query({ applicationId, eventType: next.eventType as never });
      if (!current()) return;
      setLog(append ? { deliveries: [...log.deliveries, ...page.deliveries], nextBefore: page.nextBefore } : page);
      if (events) setEvents(events);
    } catch (e) {
      if (current()) setError(messageOf(e));
    } finally {
      if (current()) setPending(false);
    }
  };
  const change = (key: FilterKey, value: string) => {
    const next = { ...latest.current.filters, [key]: value || undefined, before: undefined };
    latest.current.filters = next;
    setFilters(next);
    const query = new URLSearchParams();
    if (next.eventType) query.set("type", next.eventType);
    if (next.status) query.set("status", next.status);
    if (next.endpointId) query.set("endpoint", next.endpointId);
    router.replace(query.size ? `${pathname}?${query}` : pathname, { scroll: false });
    void reload(next);
  };

  return (
    <>
      <h2>Deliveries</h2>
      <Filters filters={filters} change={change} endpoints={props.endpoints} eventTypes={props.eventTypes} statuses={props.statuses} />
      <FormError message={error} />
      <p className="visually-hidden" role="status">
        {pending ? "Loading deliveries" : `${log.deliveries.length} deliveries shown`}
      </p>
      {log.deliveries.length === 0 ? <p className="muted">No deliveries match.</p> : null}
      <ul className="log-list" aria-label="Deliveries">
        {log.deliveries.map((d) => (
          <Delivery key={d.id} applicationId={applicationId} delivery={d} onRedelivered={() => void reload(filters)} />
        ))}
      </ul>
      {log.nextBefore ? (
        <button
          type="button"
          className="secondary"
          disabled={pending}
          onClick={() => void reload({ ...filters, before: log.nextBefore! }, true)}
        >
          Older deliveries
        </button>
      ) : null}
      <h2>Events</h2>
      <p>
        Every event of this application{filters.eventType ? ` of type ${filters.eventType}` : ""}, newest first, with the deliveries made
        for it.
      </p>
      <EventList
        key={JSON.stringify([filters.eventType, events])}
        applicationId={applicationId}
        initial={events}
        eventType={filters.eventType}
      />
    </>
  );
}
