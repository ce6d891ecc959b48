"use client";

import {
  createContext,
  Fragment,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from "react";
import { codeSamples, SAMPLE_ENV, type SampleRequest } from "@/app/_lib/code-samples";
import { MULTIPART_METADATA_EXAMPLE, paramKey, sampleRequest } from "@/app/_lib/sample-request";
import type { TryItCredentialKind, TryItOperation, TryItParam } from "@/app/_lib/try-it-types";
import { CopyButton } from "./copy-button";

/**
 * "Try it" for an API reference: the developer gives the API's credential (a
 * Data API access token, or a results API key pair), picks an operation,
 * fills its parameters and sends the request from this browser to this
 * site's own origin. Code samples (curl, JavaScript fetch, Python requests)
 * show the same request with the credential read from environment variables.
 *
 * Credentials live only in this component's memory: never written to
 * storage, a cookie or the URL, and sent only in the Authorization header of
 * the request the developer sends (requests go out without cookies, like any
 * third-party client's would).
 */
export type { TryItCredential, TryItCredentialKind, TryItOperation, TryItParam } from "@/app/_lib/try-it-types";

interface TryItState {
  operations: TryItOperation[];
  apiPath: string;
  /** The documented base URL, for the code samples. */
  serverUrl: string;
  credentialKind: TryItCredentialKind;
  /** The upload's metadata to start from (the person's own track and athlete); example ids when absent. */
  uploadMetadata: string;
  /** The access token (Data API): set by the developer or by "Get a test token". Page memory only. */
  token: string;
  setToken: (token: string) => void;
  selectedId: string;
  select: (id: string, moveFocus: boolean) => void;
  panelRef: RefObject<HTMLElement | null>;
  focusRequest: number;
}

const TryItContext = createContext<TryItState | null>(null);

function useTryIt(): TryItState {
  const state = useContext(TryItContext);
  if (!state) throw new Error("TryIt components need a TryItProvider");
  return state;
}

export function TryItProvider({
  operations,
  apiPath,
  serverUrl,
  credentialKind,
  uploadMetadata = MULTIPART_METADATA_EXAMPLE,
  children,
}: {
  operations: TryItOperation[];
  apiPath: string;
  serverUrl: string;
  credentialKind: TryItCredentialKind;
  uploadMetadata?: string;
  children: ReactNode;
}) {
  const [selectedId, setSelectedId] = useState(operations[0]?.id ?? "");
  const [token, setToken] = useState("");
  const [focusRequest, setFocusRequest] = useState(0);
  const panelRef = useRef<HTMLElement | null>(null);
  const select = (id: string, moveFocus: boolean) => {
    setSelectedId(id);
    if (moveFocus) setFocusRequest((n) => n + 1);
  };
  return (
    <TryItContext.Provider
      value={{
        operations,
        apiPath,
        serverUrl,
        credentialKind,
        uploadMetadata,
        token,
        setToken,
        selectedId,
        select,
        panelRef,
        focusRequest,
      }}
    >
      {children}
    </TryItContext.Provider>
  );
}

/** For "Get a test token": hands a fresh access token to the panel (page memory only). */
export function useTryItToken(): [string, (token: string) => void] {
  const { token, setToken } = useTryIt();
  return [token, setToken];
}

/** Next to each operation: opens it in the panel and moves focus there. */
export function TryItButton({ operationId, title }: { operationId: string; title: string }) {
  const { select } = useTryIt();
  return (
    <button type="button" className="secondary" aria-label={`Try it: ${title}`} onClick={() => select(operationId, true)}>
      Try it
    </button>
  );
}

/** The headers a developer checks first: request id, rate limit, auth challenge, type. */
const HEADERS_OF_INTEREST = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "WWW-Authenticate",
  "Content-Type",
  "Location",
];
/** Longer bodies are cut in the page (the request itself is unaffected). */
const MAX_SHOWN_CHARS = 200_000;

interface Outcome {
  request: string;
  status: number;
  statusText: string;
  ms: number;
  headers: [string, string][];
  body: string;
}

type Values = Record<string, string>;
const keyOf = paramKey;

/** The request URL on this origin, or field errors. */
function buildUrl(apiPath: string, op: TryItOperation, values: Values): { url: URL } | { errors: Values } {
  const errors: Values = {};
  let path = op.path;
  for (const p of op.params.filter((p) => p.in === "path")) {
    const value = (values[keyOf(p)] ?? "").trim();
    if (!value) errors[keyOf(p)] = `Enter ${p.name}`;
    else if (value === "." || value === "..") errors[keyOf(p)] = `${p.name} cannot be “${value}”`;
    path = path.replace(`{${p.name}}`, encodeURIComponent(value));
  }
  for (const p of op.params.filter((p) => p.in !== "path" && p.required)) {
    if (!(values[keyOf(p)] ?? "").trim()) errors[keyOf(p)] = `Enter ${p.name}`;
  }
  if (Object.keys(errors).length) return { errors };
  const url = new URL(`${apiPath}${path}`, window.location.origin);
  for (const p of op.params.filter((p) => p.in === "query")) {
    const value = values[keyOf(p)] ?? "";
    if (value !== "") url.searchParams.append(p.name, value);
  }
  return { url };
}

export function TryItPanel() {
  const { operations, apiPath, serverUrl, credentialKind, uploadMetadata, token, setToken, selectedId, select, panelRef, focusRequest } =
    useTryIt();
  const op = operations.find((o) => o.id === selectedId) ?? operations[0];
  const ids = useId();
  const [publicKey, setPublicKey] = useState("");
  const [secretKey, setSecretKey] = useState("");
  const [showToken, setShowToken] = useState(false);
  const [values, setValues] = useState<Values>({});
  const [body, setBody] = useState("");
  // The upload (multipart): a device file and its metadata, sent as the code samples send them.
  const [file, setFile] = useState<File | null>(null);
  const [metadata, setMetadata] = useState(uploadMetadata);
  const [errors, setErrors] = useState<Values>({});
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [shownOperation, setShownOperation] = useState(op?.id);
  const formRef = useRef<HTMLFormElement | null>(null);

  // A new operation starts with empty parameters and no previous response (the token stays).
  if (op && op.id !== shownOperation) {
    setShownOperation(op.id);
    setValues({});
    setBody("");
    setFile(null);
    setMetadata(uploadMetadata);
    setErrors({});
    setOutcome(null);
    setFailure(null);
  }

  // "Try it" on an operation: bring the panel into view and focus the first thing to fill in.
  useEffect(() => {
    if (focusRequest === 0) return;
    const form = formRef.current;
    if (!form) return;
    const tokenInput = form.querySelector<HTMLInputElement>("[data-try-token]");
    const needsToken = form.dataset.needsToken === "true";
    const firstParam = form.querySelector<HTMLElement>("[data-try-param]");
    const target =
      tokenInput && !tokenInput.value && needsToken ? tokenInput : (firstParam ?? form.querySelector<HTMLElement>("[data-try-send]"));
    panelRef.current?.scrollIntoView({ block: "start" });
    target?.focus();
  }, [focusRequest, panelRef]);

  if (!op) return null;
  const fieldId = (p: TryItParam) => `${ids}-${p.in}-${p.name}`;
  const title = `${op.method.toUpperCase()} ${op.path}`;
  const needsCredential = op.credentials.length > 0;
  const clean = (value: string) => value.trim().replace(/^Bearer\s+/i, "");
  /** The Authorization header value, or null when nothing is given or the operation needs none. */
  const authorization = (): string | null => {
    if (!needsCredential) return null;
    if (credentialKind === "token") return clean(token) ? `Bearer ${clean(token)}` : null;
    const pub = clean(publicKey);
    const secret = secretKey.trim();
    if (!pub) return null;
    // The secret goes with the public key wherever the operation takes the pair; the public key alone otherwise.
    return secret && op.credentials.includes("keyPair") ? `Bearer ${pub}.${secret}` : `Bearer ${pub}`;
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const built = buildUrl(apiPath, op, values);
    let bodyError: string | null = null;
    const uploadErrors: Values = {};
    if (op.multipart) {
      if (!file) uploadErrors.file = "Choose a device file (.svc) to upload";
      try {
        JSON.parse(metadata);
      } catch {
        uploadErrors.metadata = "The metadata is not valid JSON";
      }
    }
    if (op.jsonBody && body.trim()) {
      try {
        JSON.parse(body);
      } catch {
        bodyError = "The request body is not valid JSON";
      }
    }
    const fieldErrors = { ...("errors" in built ? built.errors : {}), ...(bodyError ? { body: bodyError } : {}), ...uploadErrors };
    setErrors(fieldErrors);
    if ("errors" in built || bodyError || Object.keys(uploadErrors).length) {
      setAnnouncement("Not sent: please correct the highlighted fields.");
      const first = Object.keys(fieldErrors)[0];
      const param = op.params.find((p) => keyOf(p) === first);
      document.getElementById(param ? fieldId(param) : `${ids}-${first}`)?.focus();
      return;
    }
    const url = built.url;
    // Only ever this site's API.
    if (url.origin !== window.location.origin || !url.pathname.startsWith(`${apiPath}/`)) {
      setFailure("That request would leave this site's API; not sent.");
      return;
    }
    const headers = new Headers({ Accept: "application/json" });
    try {
      const auth = authorization();
      if (auth) headers.set("Authorization", auth);
      for (const p of op.params.filter((p) => p.in === "header")) {
        const value = values[keyOf(p)] ?? "";
        if (value) headers.set(p.name, value);
      }
    } catch {
      setFailure(
        `The ${credentialKind === "token" ? "token" : "key pair"} or a header value holds characters an HTTP header cannot carry.`,
      );
      return;
    }
    if (op.jsonBody && body.trim()) headers.set("Content-Type", "application/json");
    const request = `${op.method.toUpperCase()} ${url.pathname}${url.search}`;
    setPending(true);
    setAnnouncement(`Sending ${request}`);
    const started = performance.now();
    let requestBody: BodyInit | undefined = op.jsonBody && body.trim() ? body : undefined;
    if (op.multipart && file) {
      const form = new FormData();
      form.append("file", file, file.name);
      form.append("metadata", metadata);
      requestBody = form;
    }
    try {
      const response = await fetch(url, {
        method: op.method.toUpperCase(),
        headers,
        body: requestBody,
        credentials: "omit",
        cache: "no-store",
        redirect: "manual",
        referrerPolicy: "no-referrer",
      });
      const ms = Math.round(performance.now() - started);
      const type = response.headers.get("content-type") ?? "";
      let shown: string;
      if (response.type === "opaqueredirect") shown = "(a redirect; not followed)";
      else if (/json|^text\//.test(type) || !type) {
        const text = await response.text();
        let pretty = text;
        try {
          pretty = text ? JSON.stringify(JSON.parse(text), null, 2) : "(empty body)";
        } catch {
          // Not JSON: shown as it came.
        }
        shown =
          pretty.length > MAX_SHOWN_CHARS
            ? `${pretty.slice(0, MAX_SHOWN_CHARS)}\n… (${pretty.length - MAX_SHOWN_CHARS} more characters not shown)`
            : pretty;
      } else {
        shown = `(${(await response.blob()).size} bytes of ${type}, not shown)`;
      }
      const interesting = HEADERS_OF_INTEREST.flatMap((name) => {
        const value = response.headers.get(name);
        return value === null ? [] : [[name, value] as [string, string]];
      });
      setOutcome({ request, status: response.status, statusText: response.statusText, ms, headers: interesting, body: shown });
      setAnnouncement(`${request}: ${response.status} ${response.statusText}`);
    } catch {
      setOutcome(null);
      setFailure("The request failed before a response arrived (network error).");
      setAnnouncement("The request failed.");
    } finally {
      setPending(false);
    }
  };

  const grouped = [...new Set(operations.map((o) => o.tag))].map((tag) => [tag, operations.filter((o) => o.tag === tag)] as const);
  return (
    <section className="card try-it" id="try-it" aria-labelledby={`${ids}-title`} ref={panelRef}>
      <h2 id={`${ids}-title`}>Try it</h2>
      <p className="muted">
        Sends a real request from this browser to <code>{apiPath}</code> on this site.{" "}
        {credentialKind === "token" ? (
          <>
            Paste an access token of one of your applications (or get a test token above): it stays in this page only (not saved anywhere)
            and is sent only in the <code>Authorization</code> header of the requests you send here.
          </>
        ) : (
          <>
            Enter one of your <a href="/developer/keys">key pairs</a>: it stays in this page only (not saved anywhere) and is sent only in
            the <code>Authorization</code> header of the requests you send here, as <code>Bearer PUBLIC.SECRET</code> (the public key alone
            where an operation takes only that).
          </>
        )}
      </p>
      <form ref={formRef} className="stack" onSubmit={send} noValidate data-needs-token={needsCredential}>
        {credentialKind === "token" ? (
          <div className="row">
            <div className="field">
              <label htmlFor={`${ids}-token`}>Access token</label>
              <input
                id={`${ids}-token`}
                data-try-token
                type={showToken ? "text" : "password"}
                value={token}
                onChange={(e) => setToken(e.target.value)}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                aria-describedby={`${ids}-token-hint`}
              />
              <p className="hint" id={`${ids}-token-hint`}>
                Without one, protected operations answer 401.
              </p>
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={showToken} onChange={(e) => setShowToken(e.target.checked)} /> Show token
            </label>
            <button type="button" className="secondary" onClick={() => setToken("")} disabled={!token}>
              Forget token
            </button>
          </div>
        ) : (
          <div className="row">
            <div className="field">
              <label htmlFor={`${ids}-public-key`}>Public key</label>
              <input
                id={`${ids}-public-key`}
                data-try-token
                type="text"
                value={publicKey}
                onChange={(e) => setPublicKey(e.target.value)}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                placeholder="svcpk_…"
                aria-describedby={`${ids}-key-hint`}
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-secret-key`}>Secret key</label>
              <input
                id={`${ids}-secret-key`}
                type={showToken ? "text" : "password"}
                value={secretKey}
                onChange={(e) => setSecretKey(e.target.value)}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                placeholder="svcsk_…"
                aria-describedby={`${ids}-key-hint`}
              />
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={showToken} onChange={(e) => setShowToken(e.target.checked)} /> Show secret
            </label>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setPublicKey("");
                setSecretKey("");
              }}
              disabled={!publicKey && !secretKey}
            >
              Forget key pair
            </button>
            <p className="hint" id={`${ids}-key-hint`}>
              Without a key pair, protected operations answer 401. The secret was shown once, when you created the pair.
            </p>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${ids}-operation`}>Operation</label>
          <select id={`${ids}-operation`} value={op.id} onChange={(e) => select(e.target.value, false)}>
            {grouped.map(([tag, items]) => (
              <optgroup key={tag} label={tag}>
                {items.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.method.toUpperCase()} {o.path}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p className="hint">
            {op.summary} · <a href={op.docHref ?? `#${op.id}`}>documentation</a>
            {needsCredential
              ? credentialKind === "keyPair" && !op.credentials.includes("keyPair")
                ? " · the public key alone"
                : ""
              : ` · needs no ${credentialKind === "token" ? "token" : "key"}`}
            {op.method !== "get" ? ` · a real ${op.method.toUpperCase()}: it acts on the account` : ""}
          </p>
        </div>
        {op.params.length ? (
          <fieldset>
            <legend>Parameters of {title}</legend>
            <div className="param-grid">
              {op.params.map((p) => {
                const id = fieldId(p);
                const error = errors[keyOf(p)];
                const hint = `${p.in}, ${p.type}${p.description ? ` — ${p.description}` : ""}`;
                const common = {
                  id,
                  "data-try-param": true,
                  value: values[keyOf(p)] ?? "",
                  "aria-invalid": error ? true : undefined,
                  "aria-describedby": `${id}-hint${error ? ` ${id}-error` : ""}`,
                  "aria-required": p.required || undefined,
                };
                const onChange = (e: { target: { value: string } }) => setValues((v) => ({ ...v, [keyOf(p)]: e.target.value }));
                return (
                  <div className="field" key={keyOf(p)}>
                    <label htmlFor={id}>
                      {p.name}
                      {p.required ? <span aria-hidden="true"> *</span> : null}
                    </label>
                    {p.choices ? (
                      <select {...common} onChange={onChange}>
                        <option value="">{p.required ? "Choose…" : "(not sent)"}</option>
                        {p.choices.map((c) => (
                          <option key={c} value={c}>
                            {c}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input
                        {...common}
                        type="text"
                        inputMode={p.numeric ? "numeric" : undefined}
                        autoComplete="off"
                        spellCheck={false}
                        onChange={onChange}
                      />
                    )}
                    <p className="hint" id={`${id}-hint`}>
                      {hint}
                    </p>
                    {error ? (
                      <p className="field-error" id={`${id}-error`}>
                        {error}
                      </p>
                    ) : null}
                  </div>
                );
              })}
            </div>
          </fieldset>
        ) : (
          <p className="muted">This operation takes no parameters.</p>
        )}
        {op.jsonBody ? (
          <div className="field">
            <label htmlFor={`${ids}-body`}>Request body (JSON)</label>
            <textarea
              id={`${ids}-body`}
              rows={6}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              spellCheck={false}
              aria-invalid={errors.body ? true : undefined}
              aria-describedby={errors.body ? `${ids}-body-error` : undefined}
            />
            {errors.body ? (
              <p className="field-error" id={`${ids}-body-error`}>
                {errors.body}
              </p>
            ) : null}
          </div>
        ) : null}
        {op.multipart ? (
          <>
            <div className="field">
              <label htmlFor={`${ids}-file`}>Device file (.svc)</label>
              <input
                id={`${ids}-file`}
                type="file"
                accept=".svc"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                aria-invalid={errors.file ? true : undefined}
                aria-describedby={errors.file ? `${ids}-file-error` : undefined}
              />
              {errors.file ? (
                <p className="field-error" id={`${ids}-file-error`}>
                  {errors.file}
                </p>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor={`${ids}-metadata`}>Metadata (JSON)</label>
              <textarea
                id={`${ids}-metadata`}
                rows={4}
                value={metadata}
                onChange={(e) => setMetadata(e.target.value)}
                spellCheck={false}
                aria-invalid={errors.metadata ? true : undefined}
                aria-describedby={errors.metadata ? `${ids}-metadata-error` : undefined}
              />
              {errors.metadata ? (
                <p className="field-error" id={`${ids}-metadata-error`}>
                  {errors.metadata}
                </p>
              ) : null}
            </div>
          </>
        ) : null}
        <div>
          <button type="submit" data-try-send disabled={pending}>
            Send request
          </button>
        </div>
      </form>
      <CodeSampleList request={sampleRequest(op, serverUrl, values, body, credentialKind, metadata)} />
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      {outcome ? (
        <section aria-label="Response" className="try-it-response">
          <h3>Response</h3>
          <p>
            <code>{outcome.request}</code> →{" "}
            <strong data-testid="try-it-status" className={outcome.status >= 400 ? "status-error" : "status-ok"}>
              {outcome.status} {outcome.statusText}
            </strong>{" "}
            <span className="muted">in {outcome.ms} ms</span>
          </p>
          {outcome.headers.length ? (
            <dl className="op-facts" aria-label="Response headers">
              {outcome.headers.map(([name, value]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>
                    <code>{value}</code>
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
          <pre className="response-body" tabIndex={0} aria-label="Response body">
            <code>{outcome.body}</code>
          </pre>
        </section>
      ) : null}
    </section>
  );
}

const SAMPLE_LANGUAGES = [
  ["curl", "curl"],
  ["javascript", "JavaScript (fetch)"],
  ["python", "Python (requests)"],
  ["sdk", "TypeScript (SDK)"],
] as const;

/** curl, JavaScript fetch and Python requests for the operation in the panel; credentials come from environment variables. */
function CodeSampleList({ request }: { request: SampleRequest }) {
  const samples = codeSamples(request);
  const [chosen, setLanguage] = useState<(typeof SAMPLE_LANGUAGES)[number][0]>("curl");
  const languages = SAMPLE_LANGUAGES.filter(([key]) => samples[key] !== null);
  const language = languages.some(([key]) => key === chosen) ? chosen : "curl";
  const sample = samples[language] ?? "";
  const ids = useId();
  const env =
    request.credential === "token"
      ? [SAMPLE_ENV.token]
      : request.credential === "keyPair"
        ? [SAMPLE_ENV.publicKey, SAMPLE_ENV.secretKey]
        : request.credential === "publicKey"
          ? [SAMPLE_ENV.publicKey]
          : [];
  return (
    <section aria-labelledby={`${ids}-samples`} className="code-samples">
      <h3 id={`${ids}-samples`}>Code samples</h3>
      <p className="muted">
        The request above in code.
        {env.length ? (
          <>
            {" "}
            Set{" "}
            {env.map((name, i) => (
              <Fragment key={name}>
                {i ? " and " : ""}
                <code>{name}</code>
              </Fragment>
            ))}{" "}
            in the environment first: samples never contain a credential.
          </>
        ) : null}
      </p>
      <div role="group" aria-label="Language" className="row">
        {languages.map(([key, label]) => (
          <button
            key={key}
            type="button"
            className={language === key ? undefined : "secondary"}
            aria-pressed={language === key}
            onClick={() => setLanguage(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <pre
        className="response-body"
        tabIndex={0}
        aria-label={`${SAMPLE_LANGUAGES.find(([k]) => k === language)![1]} sample`}
        data-testid="code-sample"
      >
        <code>{sample}</code>
      </pre>
      {language === "sdk" ? (
        <p className="muted">
          The SDK is the package <code>@paddle-results/sdk</code>, typed from this document: build it from the repository&apos;s{" "}
          <code>packages/sdk</code> (<code>npm pack</code>) and install the tarball; its README shows paging, job polling, token refresh and
          webhook verification.
        </p>
      ) : null}
      <CopyButton value={sample} label="Copy sample" />
    </section>
  );
}
