"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export interface SandboxPanelView {
  name: string;
  email: string;
  seed: number;
  weeks: number;
  sessionsPerWeek: number;
  createdAt: string;
  resetAt: string | null;
  counts: { sessions: number; trainings: number; devices: number; templates: number };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Makes the application's sandbox person (docs/sandbox.md). */
export function CreateSandboxForm({
  applicationId,
  defaults,
}: {
  applicationId: number;
  defaults: { seed: number; weeks: number; sessionsPerWeek: number };
}) {
  const router = useRouter();
  const [weeks, setWeeks] = useState(String(defaults.weeks));
  const [sessionsPerWeek, setSessionsPerWeek] = useState(String(defaults.sessionsPerWeek));
  const [seed, setSeed] = useState(String(defaults.seed));
  const { pending, errors, submit } = useSubmit(
    () => trpc.sandbox.create.mutate({ applicationId, weeks: Number(weeks), sessionsPerWeek: Number(sessionsPerWeek), seed: Number(seed) }),
    () => router.refresh(),
  );
  return (
    <form className="stack card" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <p>
        A separate test person for this application, filled with a simulated season: sessions in several boat classes, interval trainings
        against workout templates, equipment, records and two sensor units with their files. The same inputs always give the same data. Sign
        in as it, authorize your application against it, and reset it whenever you like: none of it touches real people or their figures.
      </p>
      <div className="row">
        <Field
          label="Weeks"
          name="weeks"
          type="number"
          min={1}
          max={26}
          value={weeks}
          onChange={(e) => setWeeks(e.target.value)}
          errors={errors.fields.weeks}
        />
        <Field
          label="Sessions a week"
          name="sessionsPerWeek"
          type="number"
          min={1}
          max={7}
          value={sessionsPerWeek}
          onChange={(e) => setSessionsPerWeek(e.target.value)}
          errors={errors.fields.sessionsPerWeek}
        />
        <Field
          label="Seed"
          name="seed"
          type="number"
          min={1}
          value={seed}
          onChange={(e) => setSeed(e.target.value)}
          errors={errors.fields.seed}
        />
      </div>
      <div className="row">
        <button type="submit" disabled={pending}>
          {pending ? "Simulating the season…" : "Create sandbox person"}
        </button>
      </div>
    </form>
  );
}

const ACTIONS = [
  { action: "upload_session", label: "Upload a simulated session", events: "session.created" },
  { action: "correct_session", label: "Correct the newest session", events: "session.updated" },
  { action: "delete_session", label: "Delete the newest session", events: "session.deleted" },
  { action: "upload_training", label: "Upload a training", events: "training.ready" },
  { action: "upload_failing_training", label: "Upload a damaged training", events: "training.failed" },
  { action: "correct_training", label: "Correct the newest training's sets", events: "training.updated" },
  { action: "request_export", label: "Export the newest session", events: "export.completed" },
  { action: "request_failing_export", label: "Export a session, then delete it", events: "export.failed" },
  { action: "fetch_device_file", label: "Fetch a device file", events: "device_job.completed" },
  { action: "revoke_authorization", label: "Revoke the application's authorization", events: "authorization.revoked" },
] as const;

export function SandboxPanel({ applicationId, sandbox }: { applicationId: number; sandbox: SandboxPanelView }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);

  async function run(label: string, work: () => Promise<string>) {
    setPending(label);
    setMessage(null);
    setError(null);
    try {
      setMessage(await work());
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Something went wrong. Please try again.");
    } finally {
      setPending(null);
    }
  }

  async function signIn() {
    setPending("signin");
    setError(null);
    const response = await fetch(`/api/sandbox/${applicationId}/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const body = (await response.json().catch(() => ({}))) as { location?: string; message?: string };
    if (response.ok && body.location) {
      window.location.assign(body.location);
      return;
    }
    setPending(null);
    setError(body.message ?? "Could not sign in as the sandbox person.");
  }

  return (
    <div className="stack">
      <dl className="card facts" data-testid="sandbox-facts">
        <div>
          <dt>Person</dt>
          <dd>
            {sandbox.name} <code>{sandbox.email}</code>
          </dd>
        </div>
        <div>
          <dt>Season</dt>
          <dd>
            {sandbox.weeks} weeks × {sandbox.sessionsPerWeek} sessions, seed {sandbox.seed}
          </dd>
        </div>
        <div>
          <dt>Holds now</dt>
          <dd data-testid="sandbox-counts">
            {sandbox.counts.sessions} sessions, {sandbox.counts.trainings} trainings, {sandbox.counts.templates} templates,{" "}
            {sandbox.counts.devices} devices
          </dd>
        </div>
        <div>
          <dt>Last reset</dt>
          <dd>{sandbox.resetAt ? new Date(sandbox.resetAt).toUTCString() : "never"}</dd>
        </div>
      </dl>
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      <FormError message={error} />
      <div className="card stack">
        <p>
          Signing in as the sandbox person replaces your session in this browser until you choose “Back to my account”. While signed in as
          it, start your application’s authorization flow: the sandbox person may authorize this application, and <code>GET /me</code>{" "}
          answers <code>&quot;sandbox&quot;: true</code> for its tokens.
        </p>
        <div className="row">
          <button type="button" onClick={signIn} disabled={pending !== null}>
            Sign in as sandbox person
          </button>
          <ConfirmButton
            label="Reset sandbox"
            title="Reset the sandbox person?"
            statement="Everything it holds is deleted and the same season is simulated again. Its identity, its authorizations and its test keys stay."
            confirmLabel="Reset"
            action={async () => {
              setPending("reset");
              try {
                return await trpc.sandbox.reset.mutate({ applicationId });
              } finally {
                setPending(null);
              }
            }}
            onDone={(result) => {
              setMessage(`Reset to the initial season in ${seconds(result.ms)}.`);
              router.refresh();
            }}
          />
          <ConfirmButton
            label="Delete sandbox"
            buttonClassName="danger"
            title="Delete the sandbox person?"
            statement="The person and all its data are deleted, and its authorizations with it."
            confirmLabel="Delete sandbox"
            action={() => trpc.sandbox.delete.mutate({ applicationId })}
            onDone={() => router.refresh()}
          />
        </div>
      </div>
      <h3>Trigger real events</h3>
      <p className="hint">
        Each button performs the action on the sandbox person’s account through the same code as the web app and the API, so it produces the
        event named next to it.
      </p>
      <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
        {ACTIONS.map((a) => (
          <li key={a.action} className="row">
            <button
              type="button"
              className="secondary"
              disabled={pending !== null}
              onClick={() => run(a.action, async () => (await trpc.sandbox.action.mutate({ applicationId, action: a.action })).message)}
            >
              {a.label}
            </button>
            <code>{a.events}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
