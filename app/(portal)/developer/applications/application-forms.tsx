"use client";

import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { CopyButton } from "@/app/_components/copy-button";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { ALL_SCOPES, SCOPE_INFO, scopeAllowedOnSurface, type Surface } from "@/server/auth/oauth/scopes";

const SURFACE_CHOICES: { value: Surface; label: string; hint: string }[] = [
  { value: "data", label: "Data", hint: "Your own integration reading your data through the Data API. Usable at once." },
  {
    value: "partner",
    label: "Partner",
    hint: "A product for other paddlers. An operator reviews it (and its embed origins) before it can be used.",
  },
  {
    value: "session",
    label: "Session",
    hint: "Sees only the sessions and trainings it created itself (uploads through a key pair linked to it).",
  },
];

const lines = (text: string) =>
  text
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);

export interface ApplicationFormValues {
  id?: number;
  name: string;
  surface: Surface;
  clientType: "confidential" | "public";
  redirectUris: string[];
  embedOrigins: string[];
  scopes: string[];
}

function TextArea({
  label,
  name,
  value,
  onChange,
  hint,
  errors,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  hint: string;
  errors?: string[];
}) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <textarea
        id={name}
        name={name}
        rows={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${name}-hint${errors?.length ? ` ${name}-error` : ""}`}
        spellCheck={false}
        style={{
          font: "inherit",
          fontFamily: "ui-monospace, monospace",
          padding: "0.5rem",
          border: "1px solid var(--border)",
          borderRadius: 6,
        }}
      />
      <p className="hint" id={`${name}-hint`}>
        {hint}
      </p>
      {errors?.length ? (
        <p className="field-error" id={`${name}-error`}>
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** Register (no id) or edit an application. Surface and client type are chosen once, at registration. */
export function ApplicationForm({ initial }: { initial?: ApplicationFormValues }) {
  const router = useRouter();
  const editing = initial?.id !== undefined;
  const [name, setName] = useState(initial?.name ?? "");
  const [surface, setSurface] = useState<Surface>(initial?.surface ?? "data");
  const [clientType, setClientType] = useState<"confidential" | "public">(initial?.clientType ?? "confidential");
  const [redirectUris, setRedirectUris] = useState((initial?.redirectUris ?? []).join("\n"));
  const [embedOrigins, setEmbedOrigins] = useState((initial?.embedOrigins ?? []).join("\n"));
  const [scopes, setScopes] = useState<string[]>(initial?.scopes ?? ["openid", "profile"]);
  const [created, setCreated] = useState<{ id: number; clientId: string; clientSecret: string | null; reviewStatus: string } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const values = {
    name,
    redirectUris: lines(redirectUris),
    embedOrigins: lines(embedOrigins),
    scopes: scopes.filter((s) => scopeAllowedOnSurface(s as never, surface)),
  };
  const { pending, errors, submit } = useSubmit(
    async () =>
      editing
        ? { ...(await trpc.applications.update.mutate({ id: initial!.id!, values })), clientId: "", clientSecret: null }
        : trpc.applications.create.mutate({ ...values, surface, clientType }),
    (result) => {
      if (editing) {
        setSaved(
          result.reviewStatus === "pending" && initial?.surface === "partner"
            ? "Saved. The changes go to an operator for review first."
            : "Saved.",
        );
        router.refresh();
      } else {
        setCreated(result);
      }
    },
  );

  if (created) {
    return (
      <div className="card">
        <div className="notice" role="status">
          <p>
            <strong>Application “{name}” registered.</strong>
            {created.clientSecret ? " Copy the client secret now: it is not stored and will not be shown again." : ""}
          </p>
          <p>
            Client ID: <code data-testid="client-id">{created.clientId}</code>{" "}
            <CopyButton value={created.clientId} label="Copy client ID" />
          </p>
          {created.clientSecret ? (
            <p>
              Client secret: <code data-testid="client-secret">{created.clientSecret}</code>{" "}
              <CopyButton value={created.clientSecret} label="Copy client secret" />
            </p>
          ) : null}
          {created.reviewStatus === "pending" ? <p>An operator reviews partner applications before they can be used.</p> : null}
        </div>
        <p>
          <Link href={`/developer/applications/${created.id}`}>Go to the application</Link>
        </p>
      </div>
    );
  }

  const toggleScope = (scope: string) => setScopes(scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope]);
  return (
    <form className="stack card" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      {saved ? (
        <p className="notice" role="status">
          {saved}
        </p>
      ) : null}
      <Field
        label="Application name"
        name="name"
        type="text"
        value={name}
        onChange={(e) => setName(e.target.value)}
        errors={errors.fields.name}
        hint="Shown to you on the consent screen."
      />
      {editing ? null : (
        <>
          <fieldset>
            <legend>Surface</legend>
            {SURFACE_CHOICES.map((choice) => (
              <label key={choice.value} className="checkbox">
                <input
                  type="radio"
                  name="surface"
                  value={choice.value}
                  checked={surface === choice.value}
                  onChange={() => setSurface(choice.value)}
                />
                <span>
                  <strong>{choice.label}</strong> — {choice.hint}
                </span>
              </label>
            ))}
            {errors.fields.surface ? <p className="field-error">{errors.fields.surface.join(" ")}</p> : null}
          </fieldset>
          <fieldset>
            <legend>Client type</legend>
            <label className="checkbox">
              <input
                type="radio"
                name="clientType"
                value="confidential"
                checked={clientType === "confidential"}
                onChange={() => setClientType("confidential")}
              />
              <span>
                <strong>Confidential</strong> — runs on a server that keeps a client secret (HTTP Basic at the token endpoint).
              </span>
            </label>
            <label className="checkbox">
              <input
                type="radio"
                name="clientType"
                value="public"
                checked={clientType === "public"}
                onChange={() => setClientType("public")}
              />
              <span>
                <strong>Public</strong> — a browser or mobile app that cannot keep a secret; PKCE only.
              </span>
            </label>
          </fieldset>
        </>
      )}
      <TextArea
        label="Redirect URIs"
        name="redirectUris"
        value={redirectUris}
        onChange={setRedirectUris}
        errors={errors.fields.redirectUris}
        hint="One per line, matched exactly. HTTPS, or http://localhost, http://127.0.0.1 or http://[::1] for development. All on the same host."
      />
      {surface === "session" ? null : (
        <TextArea
          label="Embed origins"
          name="embedOrigins"
          value={embedOrigins}
          onChange={setEmbedOrigins}
          errors={errors.fields.embedOrigins}
          hint={`Websites allowed to show replay embeds, one exact HTTPS origin per line (https://club.example).${surface === "partner" ? " An operator approves each one." : ""}`}
        />
      )}
      <fieldset>
        <legend>Scopes</legend>
        {ALL_SCOPES.map((scope) => {
          const allowed = scopeAllowedOnSurface(scope, surface);
          return (
            <label key={scope} className="checkbox">
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                checked={allowed && scopes.includes(scope)}
                disabled={!allowed}
                onChange={() => toggleScope(scope)}
              />
              <span>
                <code>{scope}</code> — {SCOPE_INFO[scope].description}
                {allowed ? "" : ` (${SCOPE_INFO[scope].surfaces.join(" and ")} applications only)`}
              </span>
            </label>
          );
        })}
        {errors.fields.scopes ? <p className="field-error">{errors.fields.scopes.join(" ")}</p> : null}
      </fieldset>
      <div className="row">
        <button type="submit" disabled={pending}>
          {editing ? "Save changes" : "Register application"}
        </button>
      </div>
    </form>
  );
}

export function RotateSecretButton({ id }: { id: number }) {
  const [secret, setSecret] = useState<string | null>(null);
  const router = useRouter();
  return (
    <div className="stack">
      {secret ? (
        <div className="notice" role="status">
          <p>New client secret (copy it now; the old one no longer works):</p>
          <p>
            <code data-testid="client-secret">{secret}</code> <CopyButton value={secret} label="Copy client secret" />
          </p>
        </div>
      ) : null}
      <div>
        <ConfirmButton
          label="Rotate client secret"
          title="Replace the client secret?"
          statement="The current secret stops working now: token requests with it fail until your application uses the new one, shown once after this."
          confirmLabel="Replace secret"
          action={() => trpc.applications.rotateSecret.mutate({ id })}
          onDone={(result) => {
            setSecret(result.clientSecret);
            router.refresh();
          }}
        />
      </div>
    </div>
  );
}

export function DeleteApplicationButton({ id, name }: { id: number; name: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete application"
      buttonClassName="danger"
      title={`Delete “${name}”?`}
      statement="Every authorization and token it holds is revoked now: it loses access to every account that connected it. This cannot be undone."
      confirmLabel="Delete application"
      action={() => trpc.applications.delete.mutate({ id })}
      onDone={() => {
        router.push("/developer/applications");
        router.refresh();
      }}
    />
  );
}
