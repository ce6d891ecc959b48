import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getApplication } from "@/server/applications/applications";
import { DEFAULT_SANDBOX_SEASON, getSandbox } from "@/server/sandbox/sandbox";
import { loadOr404, parseId } from "@/app/_lib/params";
import { ApplicationForm, DeleteApplicationButton, RotateSecretButton } from "../application-forms";
import { ApplicationDetail } from "@/app/_components/application-detail";
import { CreateSandboxForm, SandboxPanel } from "./sandbox-panel";
import { endpointUrlHint, listEndpoints } from "@/server/webhooks/endpoints";
import { listListenTokens } from "@/server/webhooks/listen-tokens";
import { getEnv } from "@/server/config/env";
import { WEBHOOK_EVENT_TYPES, webhookEventTypeNames } from "@/server/webhooks/event-types";
import { WebhookEndpoints } from "./webhook-endpoints";
import { ListenTokens } from "./listen-tokens";
import { TestKeysSection } from "./test-keys-section";

export const metadata: Metadata = { title: "Application" };

export default async function ApplicationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  const user = await requireUser(`/developer/applications/${raw}`);
  const id = parseId(raw);
  if (id === null) notFound();
  const app = await loadOr404(() => getApplication(getDb(), user.id, id));
  const sandbox = await getSandbox(getDb(), user.id, app.id);
  const endpoints = await listEndpoints(getDb(), user.id, app.id);
  const listenTokens = await listListenTokens(getDb(), user.id, app.id);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const eventTypes = webhookEventTypeNames.map((name) => {
    const scope = WEBHOOK_EVENT_TYPES[name].scope;
    return { name, summary: WEBHOOK_EVENT_TYPES[name].summary, scope, available: scope === null || app.scopes.includes(scope) };
  });
  return (
    <ApplicationDetail
      app={app}
      backHref="/developer/applications"
      beforeFacts={
        <div className="card">
          <p>
            Client ID: <code>{app.clientId}</code>
          </p>
          <p>Client secret: {app.clientSecretStart ? <code>{app.clientSecretStart}…</code> : "none (public client: PKCE only)"}</p>
        </div>
      }
      facts={[
        { term: "Surface", value: app.surface },
        { term: "Type", value: app.clientType },
        { term: "Introspection", value: app.introspectionAllowed ? "allowed" : "not allowed" },
      ]}
      beforeOrigins={
        app.reviewNote ? (
          <p className="card">
            <strong>Operator note:</strong> {app.reviewNote}
          </p>
        ) : null
      }
    >
      {app.clientType === "confidential" ? (
        <>
          <h2>Client secret</h2>
          <div className="card">
            <RotateSecretButton id={app.id} />
          </div>
        </>
      ) : null}
      <h2>Sandbox</h2>
      {sandbox ? (
        <>
          <SandboxPanel
            applicationId={app.id}
            sandbox={{ ...sandbox, createdAt: sandbox.createdAt.toISOString(), resetAt: sandbox.resetAt?.toISOString() ?? null }}
          />
          <TestKeysSection ownerUserId={user.id} applicationId={app.id} sandboxName={sandbox.name} />
        </>
      ) : (
        <CreateSandboxForm applicationId={app.id} defaults={DEFAULT_SANDBOX_SEASON} />
      )}
      <h2>Webhooks</h2>
      <WebhookEndpoints
        applicationId={app.id}
        types={eventTypes}
        urlHint={endpointUrlHint()}
        endpoints={endpoints.map((e) => ({
          ...e,
          previousSecretExpiresAt: iso(e.previousSecretExpiresAt),
          disabledAt: iso(e.disabledAt),
          createdAt: undefined,
        }))}
      />
      <h2>Events on your machine</h2>
      <ListenTokens
        applicationId={app.id}
        origin={getEnv().appUrl}
        tokens={listenTokens.map((t) => ({
          id: t.id,
          name: t.name,
          tokenStart: t.tokenStart,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: iso(t.lastUsedAt),
          revokedAt: iso(t.revokedAt),
        }))}
      />
      <h2>Settings</h2>
      <ApplicationForm
        initial={{
          id: app.id,
          name: app.name,
          surface: app.surface,
          clientType: app.clientType,
          redirectUris: app.redirectUris,
          embedOrigins: app.origins.map((o) => o.origin),
          scopes: app.scopes,
        }}
      />
      <h2>Delete</h2>
      <div className="card">
        <DeleteApplicationButton id={app.id} name={app.name} />
      </div>
    </ApplicationDetail>
  );
}
