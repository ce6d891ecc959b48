"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { CopyButton } from "@/app/_components/copy-button";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export interface EndpointRow {
  id: string;
  url: string;
  eventTypes: string[];
  secretStart: string;
  previousSecretExpiresAt: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
}

type EventTypeInfo = { name: string; summary: string; available: boolean; scope: string | null };

function EventTypeChoices({
  types,
  chosen,
  onToggle,
  errors,
}: {
  types: EventTypeInfo[];
  chosen: string[];
  onToggle: (name: string) => void;
  errors?: string[];
}) {
  return (
    <fieldset>
      <legend>Event types</legend>
      {types.map((type) => (
        <label key={type.name} className="checkbox">
          <input
            type="checkbox"
            name="eventTypes"
            value={type.name}
            checked={chosen.includes(type.name)}
            onChange={() => onToggle(type.name)}
          />
          <span>
            <code>{type.name}</code> — {type.summary}
            {type.available ? "" : ` (needs the ${type.scope} scope, which this application does not request)`}
          </span>
        </label>
      ))}
      {errors?.length ? <p className="field-error">{errors.join(" ")}</p> : null}
    </fieldset>
  );
}

function SecretNotice({ secret, text }: { secret: string; text: string }) {
  return (
    <div className="notice" role="status">
      <p>{text}</p>
      <p>
        <code data-testid="webhook-secret">{secret}</code> <CopyButton value={secret} label="Copy signing secret" />
      </p>
    </div>
  );
}

function EndpointForm({
  applicationId,
  types,
  initial,
  urlHint,
  onDone,
}: {
  applicationId: number;
  types: EventTypeInfo[];
  initial?: EndpointRow;
  urlHint: string;
  onDone: (secret: string | null) => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [chosen, setChosen] = useState<string[]>(initial?.eventTypes ?? types.filter((t) => t.available).map((t) => t.name));
  const toggle = (name: string) => setChosen(chosen.includes(name) ? chosen.filter((n) => n !== name) : [...chosen, name]);
  const { pending, errors, submit } = useSubmit(
    async () => {
      const values = { url, eventTypes: chosen as never };
      if (initial) {
        await trpc.webhooks.update.mutate({ applicationId, endpointId: initial.id, ...values });
        return null;
      }
      return (await trpc.webhooks.create.mutate({ applicationId, ...values })).secret;
    },
    (secret) => onDone(secret),
  );
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <Field
        label="Endpoint URL"
        name={initial ? `url-${initial.id}` : "url"}
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        errors={errors.fields.url}
        hint={urlHint}
      />
      <EventTypeChoices types={types} chosen={chosen} onToggle={toggle} errors={errors.fields.eventTypes} />
      <div className="row">
        <button type="submit" disabled={pending}>
          {initial ? "Save endpoint" : "Add endpoint"}
        </button>
      </div>
    </form>
  );
}

function Endpoint({
  applicationId,
  endpoint,
  types,
  urlHint,
}: {
  applicationId: number;
  endpoint: EndpointRow;
  types: EventTypeInfo[];
  urlHint: string;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [overlapHours, setOverlapHours] = useState(24);
  const [message, setMessage] = useState<string | null>(null);
  const ids = { applicationId, endpointId: endpoint.id };
  const test = useSubmit(
    () => trpc.webhooks.sendTest.mutate(ids),
    () => {
      setMessage("Test event queued.");
      router.refresh();
    },
  );
  const toggle = useSubmit(
    () => trpc.webhooks.update.mutate({ ...ids, enabled: Boolean(endpoint.disabledAt) }),
    () => router.refresh(),
  );
  return (
    <section className="card stack" aria-label={`Webhook endpoint ${endpoint.url}`}>
      <h3>
        <code>{endpoint.url}</code>
      </h3>
      {endpoint.disabledAt ? (
        <p className="form-error" role="status">
          Disabled {endpoint.disabledAt.slice(0, 10)}: {endpoint.disabledReason}
        </p>
      ) : (
        <p>Active</p>
      )}
      <p>
        Events:{" "}
        {endpoint.eventTypes.map((t) => (
          <code key={t}>{t} </code>
        ))}
      </p>
      <p>
        Signing secret: <code>{endpoint.secretStart}</code>
        {endpoint.previousSecretExpiresAt && new Date(endpoint.previousSecretExpiresAt) > new Date()
          ? ` (the previous secret also signs until ${endpoint.previousSecretExpiresAt.replace("T", " ").slice(0, 16)} UTC)`
          : ""}
      </p>
      {secret ? <SecretNotice secret={secret} text="New signing secret (copy it now; it is not shown again):" /> : null}
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      <FormError message={test.errors.form ?? toggle.errors.form} />
      <div className="row">
        <button type="button" onClick={() => test.submit()} disabled={test.pending}>
          Send test event
        </button>
        <button type="button" className="secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          {editing ? "Cancel editing" : "Edit"}
        </button>
        <button type="button" className="secondary" onClick={() => toggle.submit()} disabled={toggle.pending}>
          {endpoint.disabledAt ? "Enable" : "Disable"}
        </button>
        <ConfirmButton
          label="Rotate secret"
          title="Rotate the signing secret?"
          statement="A new secret signs every delivery from now on. During the overlap the previous secret signs too (two signatures), so your consumer can switch without missing an event."
          confirmLabel="Rotate secret"
          action={() => trpc.webhooks.rotateSecret.mutate({ ...ids, overlapHours })}
          onDone={(result) => {
            setSecret(result.secret);
            router.refresh();
          }}
        >
          <label htmlFor={`overlap-${endpoint.id}`}>Overlap</label>{" "}
          <select id={`overlap-${endpoint.id}`} value={overlapHours} onChange={(e) => setOverlapHours(Number(e.target.value))}>
            <option value={0}>none: the old secret stops now</option>
            <option value={1}>1 hour</option>
            <option value={24}>24 hours</option>
            <option value={72}>3 days</option>
            <option value={168}>7 days</option>
          </select>
        </ConfirmButton>
        <ConfirmButton
          label="Delete endpoint"
          buttonClassName="danger"
          title="Delete this webhook endpoint?"
          statement="No more events are sent to it, and its delivery history goes with it."
          confirmLabel="Delete endpoint"
          action={() => trpc.webhooks.delete.mutate(ids)}
          onDone={() => router.refresh()}
        />
      </div>
      {editing ? (
        <EndpointForm
          applicationId={applicationId}
          types={types}
          initial={endpoint}
          urlHint={urlHint}
          onDone={() => {
            setEditing(false);
            router.refresh();
          }}
        />
      ) : null}
      <p>
        <Link href={`/developer/applications/${applicationId}/webhooks?endpoint=${endpoint.id}`}>Delivery log of this endpoint</Link>
      </p>
    </section>
  );
}

/** The application page's webhooks section (docs/webhooks.md). */
export function WebhookEndpoints({
  applicationId,
  endpoints,
  types,
  urlHint,
}: {
  applicationId: number;
  endpoints: EndpointRow[];
  types: EventTypeInfo[];
  /** What URLs this server accepts (server/webhooks/endpoints.ts endpointUrlHint). */
  urlHint: string;
}) {
  const router = useRouter();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div className="stack">
      <p>
        Signed events (<a href="https://www.standardwebhooks.com/">Standard Webhooks</a>) for the people who authorized this application;
        see the <Link href="/developer/docs/data-api#webhooks">Data API reference</Link>. The{" "}
        <Link href={`/developer/applications/${applicationId}/webhooks`}>webhook log</Link> shows every delivery with its request and
        response, and every event.
      </p>
      {secret ? <SecretNotice secret={secret} text="Endpoint added. Copy its signing secret now: it is not shown again." /> : null}
      {endpoints.map((endpoint) => (
        <Endpoint key={endpoint.id} applicationId={applicationId} endpoint={endpoint} types={types} urlHint={urlHint} />
      ))}
      {adding ? (
        <div className="card">
          <EndpointForm
            applicationId={applicationId}
            types={types}
            urlHint={urlHint}
            onDone={(s) => {
              setSecret(s);
              setAdding(false);
              router.refresh();
            }}
          />
        </div>
      ) : (
        <div>
          <button type="button" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        </div>
      )}
    </div>
  );
}
