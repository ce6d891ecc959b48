"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { CopyButton } from "@/app/_components/copy-button";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export interface ListenTokenRow {
  id: string;
  name: string;
  tokenStart: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const utc = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "never");

function ListenTokenTable({ applicationId, tokens }: { applicationId: number; tokens: ListenTokenRow[] }) {
  const router = useRouter();
  if (!tokens.length) return null;
  return (
    <table>
      <caption>Listen tokens</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Token</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>
              <code>{t.tokenStart}</code>
            </td>
            <td>{utc(t.createdAt)}</td>
            <td>{utc(t.lastUsedAt)}</td>
            <td>
              {t.revokedAt ? (
                `Revoked ${utc(t.revokedAt)}`
              ) : (
                <ConfirmButton
                  label="Revoke"
                  ariaLabel={`Revoke listen token ${t.name}`}
                  buttonClassName="danger"
                  title="Revoke this listen token?"
                  statement="The command using it stops receiving events at once and cannot connect again."
                  confirmLabel="Revoke"
                  action={() => trpc.listenTokens.revoke.mutate({ applicationId, tokenId: t.id })}
                  onDone={() => router.refresh()}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The application page's listen tokens (docs/webhooks.md "Local
 * development"): `paddle-results listen` streams this application's events
 * with one and posts them to a URL on the developer's machine.
 */
export function ListenTokens({ applicationId, origin, tokens }: { applicationId: number; origin: string; tokens: ListenTokenRow[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [token, setToken] = useState<string | null>(null);
  const create = useSubmit(
    () => trpc.listenTokens.create.mutate({ applicationId, name }),
    (result) => {
      setToken(result.token);
      setName("");
      router.refresh();
    },
  );
  const command = `npx paddle-results listen --api ${origin} --token ${token ?? "prl_…"} --forward-to http://localhost:8790/hook`;
  return (
    <div className="stack">
      <p>
        Receive this application&apos;s events on your own machine without a public URL, as <code>stripe listen</code> does: the command
        below connects out to this server, and posts each event, signed like a real delivery, to a local URL. A listen token reads this
        application&apos;s events only; it is not an API credential.
      </p>
      {token ? (
        <div className="notice" role="status">
          <p>Listen token made. Copy it now: it is not shown again.</p>
          <p>
            <code data-testid="listen-token">{token}</code> <CopyButton value={token} label="Copy listen token" />
          </p>
        </div>
      ) : null}
      {/* Focusable: the command scrolls sideways on a phone, and a keyboard must reach it (axe scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label="The listen command">
        <code>{command}</code>
      </pre>
      <ListenTokenTable applicationId={applicationId} tokens={tokens} />
      <form className="stack" onSubmit={create.submit} noValidate>
        <FormError message={create.errors.form} />
        <Field
          label="Listen token name"
          name="listen-token-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          errors={create.errors.fields.name}
          hint="Where it runs, e.g. “Laptop”."
        />
        <div className="row">
          <button type="submit" disabled={create.pending}>
            Make listen token
          </button>
        </div>
      </form>
    </div>
  );
}
