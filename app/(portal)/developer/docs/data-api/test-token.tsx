"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { useTryItToken } from "@/app/_components/try-it";
import { pkcePair, randomState, TEST_TOKEN_MESSAGE, type TestTokenCallback } from "@/app/_lib/test-token";

export interface TestTokenApplication {
  id: number;
  name: string;
  clientId: string;
  clientType: "confidential" | "public";
  surface: string;
  scopes: string[];
  /** Registered the portal's callback as a redirect URI. */
  hasCallback: boolean;
  /** Partner applications waiting for (or refused by) review cannot be authorized. */
  usable: boolean;
}

interface Pending {
  state: string;
  verifier: string;
  clientId: string;
  secret: string | null;
  popup: Window;
}

/**
 * "Get a test token" for one of the owner's applications: the real
 * authorization code + PKCE flow, run in a pop-up that ends on the portal's
 * callback page, and the code exchanged here at the token endpoint. The
 * verifier, the client secret and the token stay in this page's memory; the
 * token goes into the Try it panel.
 */
export function TestToken({
  applications,
  callbackUrl,
  authorizeUrl,
  tokenUrl,
  resource,
}: {
  applications: TestTokenApplication[];
  callbackUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  resource: string;
}) {
  const ids = useId();
  const [, setToken] = useTryItToken();
  const ready = applications.filter((a) => a.hasCallback && a.usable);
  const [appId, setAppId] = useState(String(ready[0]?.id ?? ""));
  const app = applications.find((a) => String(a.id) === appId);
  const [scopes, setScopes] = useState<string[]>(() => defaultScopes(ready[0]));
  const [secret, setSecret] = useState("");
  const [status, setStatus] = useState<{ kind: "idle" | "working" | "done" | "error"; text: string }>({ kind: "idle", text: "" });
  const pending = useRef<Pending | null>(null);

  useEffect(() => {
    const onMessage = async (event: MessageEvent) => {
      const flow = pending.current;
      if (event.origin !== window.location.origin || !flow || event.source !== flow.popup) return;
      const data = event.data as TestTokenCallback;
      if (data?.type !== TEST_TOKEN_MESSAGE) return;
      pending.current = null;
      if (data.state !== flow.state)
        return setStatus({ kind: "error", text: "The answer did not match this request (state); nothing was exchanged. Try again." });
      if (data.error || !data.code)
        return setStatus({
          kind: "error",
          text: `The authorization ended without a code: ${data.error ?? "no code"}${data.errorDescription ? ` (${data.errorDescription})` : ""}.`,
        });
      setStatus({ kind: "working", text: "Exchanging the code at the token endpoint…" });
      const body = new URLSearchParams({
        grant_type: "authorization_code",
        code: data.code,
        redirect_uri: callbackUrl,
        code_verifier: flow.verifier,
        resource,
      });
      const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
      // client_secret_basic: both halves form-encoded first (RFC 6749 §2.3.1); public clients send client_id in the body.
      if (flow.secret) headers.Authorization = `Basic ${btoa(`${encodeURIComponent(flow.clientId)}:${encodeURIComponent(flow.secret)}`)}`;
      else body.set("client_id", flow.clientId);
      try {
        const response = await fetch(tokenUrl, {
          method: "POST",
          headers,
          body,
          credentials: "omit",
          cache: "no-store",
          referrerPolicy: "no-referrer",
        });
        const json = (await response.json().catch(() => ({}))) as {
          access_token?: string;
          expires_in?: number;
          scope?: string;
          error?: string;
          error_description?: string;
        };
        if (!response.ok || !json.access_token) {
          return setStatus({
            kind: "error",
            text: `The token endpoint answered ${response.status}: ${json.error ?? "error"}${json.error_description ? ` (${json.error_description})` : ""}.`,
          });
        }
        setToken(json.access_token);
        setStatus({
          kind: "done",
          text: `Test token received and put into the Try it panel: scopes ${json.scope ?? "(none)"}, valid for ${Math.round((json.expires_in ?? 0) / 60)} minutes. It is in this page only; reloading forgets it.`,
        });
      } catch {
        setStatus({ kind: "error", text: "The token request failed before an answer arrived (network error)." });
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [callbackUrl, resource, setToken, tokenUrl]);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!app) return;
    if (app.clientType === "confidential" && !secret.trim())
      return setStatus({
        kind: "error",
        text: "Enter the application's client secret: a confidential client authenticates at the token endpoint.",
      });
    if (!scopes.length) return setStatus({ kind: "error", text: "Choose at least one scope." });
    // Opened at once, inside the click, so pop-up blockers let it through; the address follows.
    const popup = window.open("about:blank", "svc-test-token", "popup,width=560,height=760");
    if (!popup) return setStatus({ kind: "error", text: "The browser blocked the pop-up: allow pop-ups for this site and try again." });
    const { verifier, challenge } = await pkcePair();
    const state = randomState();
    const url = new URL(authorizeUrl);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: app.clientId,
      redirect_uri: callbackUrl,
      scope: scopes.join(" "),
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource,
      ...(scopes.includes("openid") ? { nonce: randomState() } : {}),
    }).toString();
    pending.current = { state, verifier, clientId: app.clientId, secret: app.clientType === "confidential" ? secret.trim() : null, popup };
    popup.location.href = url.toString();
    setStatus({ kind: "working", text: "Sign in and allow access in the pop-up…" });
  };

  return (
    <section className="card token-help" id="test-token" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Get a test token</h2>
      <p>
        Runs the real authorization code flow with PKCE for one of your applications, in a pop-up: you sign in and allow access as any user
        would, this page exchanges the code at the token endpoint and puts the access token into the Try it panel below. The PKCE verifier
        (made with WebCrypto), the client secret and the token stay in this page&apos;s memory; nothing is stored on the server or in the
        browser.
      </p>
      <p>
        The pop-up returns to the portal&apos;s callback page, so the application must have it as a redirect URI:{" "}
        <code data-testid="test-token-callback">{callbackUrl}</code> <CopyButton value={callbackUrl} label="Copy callback URI" />. All of an
        application&apos;s redirect URIs are on one host, so use a development application for this (or add the callback to one that lives
        on this site).
      </p>
      {applications.length === 0 ? (
        <p className="muted">
          You have no applications yet. <Link href="/developer/applications/new">Register one</Link> with the callback above as its redirect
          URI.
        </p>
      ) : (
        <form className="stack" onSubmit={start} aria-labelledby={`${ids}-title`} noValidate>
          <div className="field">
            <label htmlFor={`${ids}-app`}>Application</label>
            <select
              id={`${ids}-app`}
              value={appId}
              onChange={(e) => {
                setAppId(e.target.value);
                setScopes(defaultScopes(applications.find((a) => String(a.id) === e.target.value)));
                setSecret("");
              }}
              aria-describedby={`${ids}-app-hint`}
            >
              {!ready.length ? <option value="">Choose…</option> : null}
              {applications.map((a) => (
                <option key={a.id} value={a.id} disabled={!a.hasCallback || !a.usable}>
                  {a.name} ({a.surface}, {a.clientType}){!a.usable ? " — not approved" : !a.hasCallback ? " — callback not registered" : ""}
                </option>
              ))}
            </select>
            <p className="hint" id={`${ids}-app-hint`}>
              Applications without the callback cannot be chosen: add it under <Link href="/developer/applications">Applications</Link>.
            </p>
          </div>
          {app ? (
            <>
              <fieldset>
                <legend>Scopes to ask for</legend>
                <div className="row">
                  {app.scopes.map((scope) => (
                    <label className="checkbox" key={scope}>
                      <input
                        type="checkbox"
                        checked={scopes.includes(scope)}
                        onChange={(e) => setScopes((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))}
                      />{" "}
                      {scope}
                    </label>
                  ))}
                </div>
              </fieldset>
              {app.clientType === "confidential" ? (
                <div className="field">
                  <label htmlFor={`${ids}-secret`}>Client secret</label>
                  <input
                    id={`${ids}-secret`}
                    type="password"
                    value={secret}
                    onChange={(e) => setSecret(e.target.value)}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="svcas_…"
                    aria-describedby={`${ids}-secret-hint`}
                  />
                  <p className="hint" id={`${ids}-secret-hint`}>
                    Sent only to the token endpoint, in its Authorization header (client_secret_basic). Public clients need none.
                  </p>
                </div>
              ) : null}
              <div>
                <button type="submit" disabled={status.kind === "working"}>
                  Get a test token
                </button>
              </div>
            </>
          ) : null}
        </form>
      )}
      <p
        role="status"
        data-testid="test-token-status"
        className={status.kind === "error" ? "form-error" : status.kind === "done" ? "status-ok" : "muted"}
      >
        {status.text}
      </p>
    </section>
  );
}

/** Every scope the application registered except offline_access: a test token needs no refresh token. */
function defaultScopes(app: TestTokenApplication | undefined): string[] {
  return app ? app.scopes.filter((s) => s !== "offline_access") : [];
}
