import { Fragment, type ReactNode } from "react";
import { dereference } from "@/server/http/openapi/dereference";
import {
  TryItButton,
  TryItPanel,
  TryItProvider,
  type TryItCredential,
  type TryItCredentialKind,
  type TryItOperation,
  type TryItParam,
} from "./try-it";

/**
 * A readable reference of an OpenAPI 3.1 document, rendered on the server
 * from the same document the API serves (no third-party viewer, nothing
 * fetched from elsewhere). Both API references use it; the Data API's adds
 * the "Try it" panel. The document names its models, shared parameters and
 * shared responses (`$ref`); the reference reads it with those resolved, and
 * shows a named model by its name.
 */
type Schema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  /** The model's name when the document refers to it (`#/components/schemas/<name>`). */
  "x-model"?: string;
};
type Parameter = { name: string; in: string; required: boolean; description?: string; schema: Schema };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { description?: string; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
  [extension: `x-${string}`]: unknown;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

type Entry = { method: string; path: string; op: Operation };

function typeOf(schema: Schema | undefined): string {
  if (!schema) return "";
  if (schema["x-model"]) {
    const { "x-model": name, ...shape } = schema;
    const described = typeOf(shape);
    return described === "object" ? name : `${name}: ${described}`;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  const base = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  // zod writes ±MAX_SAFE_INTEGER on every integer: not a limit worth reading.
  const min = schema.minimum !== undefined && schema.minimum > Number.MIN_SAFE_INTEGER ? schema.minimum : undefined;
  const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  const range =
    min !== undefined && max !== undefined ? ` ${min}…${max}` : min !== undefined ? ` ≥ ${min}` : max !== undefined ? ` ≤ ${max}` : "";
  return `${base}${schema.format ? ` (${schema.format})` : ""}${range}`;
}

function Fields({ schema }: { schema: Schema }) {
  const target = schema.type === "array" ? schema.items : schema;
  if (!target?.properties) return <code>{typeOf(schema)}</code>;
  return (
    <ul className="schema">
      {Object.entries(target.properties).map(([name, child]) => (
        <li key={name}>
          <code>{name}</code> <span className="muted">{typeOf(child)}</span>
          {child.description ? ` — ${child.description}` : ""}
          {child.properties || child.items?.properties ? <Fields schema={child} /> : null}
        </li>
      ))}
    </ul>
  );
}

const resolvedDocuments = new WeakMap<OpenApiDocument, OpenApiDocument>();
/** The document with its references resolved (once per document object). */
function resolved(document: OpenApiDocument): OpenApiDocument {
  let copy = resolvedDocuments.get(document);
  if (!copy) resolvedDocuments.set(document, (copy = dereference(document, { modelKey: "x-model" })));
  return copy;
}

export const entriesOf = (document: OpenApiDocument): Entry[] =>
  Object.entries(resolved(document).paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, op]) => ({ method, path, op })),
  );
const tagOf = (op: Operation) => op.tags?.[0] ?? "Operations";
const titleOf = ({ method, path }: Pick<Entry, "method" | "path">) => `${method.toUpperCase()} ${path}`;
const listOf = (value: unknown): string[] | null => (Array.isArray(value) ? value.map(String) : null);

/** Operations in document order, grouped by their first tag. */
function groupByTag(entries: Entry[]): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) groups.set(tagOf(entry.op), [...(groups.get(tagOf(entry.op)) ?? []), entry]);
  return [...groups];
}

/** The smallest body the schema accepts: its required members, each with a first allowed value (for the SDK sample of an empty body). */
function exampleOf(schema: Schema | undefined): unknown {
  if (!schema) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.anyOf?.length) return exampleOf(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object") return Object.fromEntries((schema.required ?? []).map((name) => [name, exampleOf(schema.properties?.[name])]));
  if (type === "array") return [];
  if (type === "integer" || type === "number")
    return schema.minimum !== undefined && schema.minimum > Number.MIN_SAFE_INTEGER ? schema.minimum : 1;
  if (type === "boolean") return false;
  return "…";
}

/** What the browser-side "Try it" panel needs of each operation (plain, serializable data). */
export function tryItOperation({ method, path, op }: Entry): TryItOperation {
  const params: TryItParam[] = (op.parameters ?? [])
    .filter((p) => (p.in === "path" || p.in === "query" || p.in === "header") && p.name.toLowerCase() !== "authorization")
    .map((p) => {
      const type = Array.isArray(p.schema.type) ? p.schema.type.find((t) => t !== "null") : p.schema.type;
      return {
        name: p.name,
        in: p.in as TryItParam["in"],
        required: p.in === "path" || p.required,
        type: typeOf(p.schema),
        description: p.description,
        choices: type === "boolean" ? ["true", "false"] : p.schema.enum?.map(String),
        numeric: type === "integer" || type === "number",
      };
    });
  return {
    id: op.operationId,
    method,
    path,
    tag: tagOf(op),
    summary: op.summary,
    credentials: (op.security ?? [])
      .flatMap((s) => Object.keys(s))
      .map((name): TryItCredential => (name === "oauth2" ? "token" : name === "publicKey" ? "publicKey" : "keyPair")),
    params,
    jsonBody: Boolean(op.requestBody?.content["application/json"]),
    multipart: Boolean(op.requestBody?.content["multipart/form-data"]),
    exampleBody: op.requestBody?.content["application/json"]
      ? JSON.stringify(exampleOf(op.requestBody.content["application/json"].schema))
      : undefined,
    binary:
      Object.entries(op.responses).flatMap(([status, r]) =>
        status.startsWith("2") && r.content && !r.content["application/json"] ? Object.keys(r.content) : [],
      )[0] ?? null,
  };
}

/** Security scheme names as a reader knows them. */
const CREDENTIAL_NAMES: Record<string, string> = {
  oauth2: "OAuth access token",
  keyPair: "key pair (Bearer PUBLIC.SECRET)",
  publicKey: "public key alone (Bearer PUBLIC)",
};

/** Items with ", " between them: read as separate words, not run together. */
const commaSeparated = (items: ReactNode[]) =>
  items.flatMap((item, i) => (i === 0 ? [item] : [<Fragment key={`sep-${i}`}>, </Fragment>, item]));

function OperationFacts({ op }: { op: Operation }) {
  const scopes = listOf(op["x-scopes"]);
  const surfaces = listOf(op["x-surfaces"]);
  const credential = op.security?.length
    ? op.security.map((s) => CREDENTIAL_NAMES[Object.keys(s)[0]] ?? Object.keys(s)[0]).join(" or ")
    : "none";
  return (
    <dl className="op-facts">
      <div>
        <dt>Credential</dt>
        <dd>{credential}</dd>
      </div>
      {scopes ? (
        <div>
          <dt>Scopes</dt>
          <dd>{scopes.length ? commaSeparated(scopes.map((s) => <code key={s}>{s}</code>)) : <span className="muted">none</span>}</dd>
        </div>
      ) : null}
      {surfaces ? (
        <div>
          <dt>Surfaces</dt>
          <dd>
            {commaSeparated(
              surfaces.map((s) => (
                <span className="badge" key={s}>
                  {s}
                </span>
              )),
            )}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The description without its closing "Scopes: … Surfaces: …" line when the facts above already show both. */
const descriptionOf = (op: Operation) =>
  (op["x-scopes"] && op["x-surfaces"]
    ? (op.description ?? "").split("\n\n").filter((p) => !/^Scopes: .*Surfaces: [^\n]*$/.test(p))
    : [op.description ?? ""]
  )
    .join("\n\n")
    .trim();

function OperationSection({ entry, tryIt }: { entry: Entry; tryIt: boolean }) {
  const { op } = entry;
  const titleId = `${op.operationId}-title`;
  return (
    <section className="card operation" id={op.operationId} aria-labelledby={titleId}>
      <div className="page-header">
        <h3 id={titleId}>
          <code>{titleOf(entry)}</code>
        </h3>
        {tryIt ? <TryItButton operationId={op.operationId} title={titleOf(entry)} /> : null}
      </div>
      <p>{op.summary}</p>
      <OperationFacts op={op} />
      {descriptionOf(op) ? <p className="muted pre-line">{descriptionOf(op)}</p> : null}
      {op.parameters?.length ? (
        <table aria-label={`Parameters of ${titleOf(entry)}`}>
          <thead>
            <tr>
              <th scope="col">Parameter</th>
              <th scope="col">In</th>
              <th scope="col">Type</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`}>
                <td>
                  <code>{p.name}</code>
                  {p.required ? <abbr title="required"> *</abbr> : ""}
                </td>
                <td>{p.in}</td>
                <td>{typeOf(p.schema)}</td>
                <td>
                  {p.description ?? ""}
                  {p.schema.default !== undefined ? <span className="muted"> (default {JSON.stringify(p.schema.default)})</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {op.requestBody
        ? Object.entries(op.requestBody.content).map(([type, content]) => (
            <div key={type}>
              <h4>Request body ({type})</h4>
              {op.requestBody?.description ? <p>{op.requestBody.description}</p> : null}
              <Fields schema={content.schema} />
            </div>
          ))
        : null}
      <h4>Responses</h4>
      <ul>
        {Object.entries(op.responses).map(([status, response]) => (
          <li key={status}>
            <strong>{status}</strong> {response.description}
            {response.headers ? <span className="muted"> · headers: {Object.keys(response.headers).join(", ")}</span> : null}
            {response.content?.["application/json"] && status.startsWith("2") ? (
              <Fields schema={response.content["application/json"].schema} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A tag's page name: "Records and health" → "records-and-health". */
export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The document's tags in document order, each with its page slug and operations. */
export function referenceTags(document: OpenApiDocument): { tag: string; slug: string; count: number }[] {
  return groupByTag(entriesOf(document)).map(([tag, items]) => ({ tag, slug: tagSlug(tag), count: items.length }));
}

/**
 * The reference is split per tag (docs/web-app.md "API references"): the
 * index page (`tag` absent) has the description and every operation as a link
 * to its tag's page; a tag's page has its operations in full. One page of
 * every operation was 68,000 px tall and took seconds to load.
 * `tryIt`: the credential the panel asks for (an access token for the Data
 * API, a key pair for the results API); the panel on a tag's page offers every
 * operation of the API, the tag's first. `beforeTryIt`: what the page puts
 * above the panel (the Data API's "Get a test token").
 */
export function OpenApiReference({
  document,
  documentUrl,
  basePath,
  tag,
  tryIt,
  beforeTryIt,
  uploadMetadata,
}: {
  document: OpenApiDocument;
  documentUrl: string;
  basePath: string;
  tag?: string;
  tryIt?: TryItCredentialKind;
  beforeTryIt?: ReactNode;
  /** The Try it panel's upload metadata (the person's own track and athlete). */
  uploadMetadata?: string;
}) {
  const entries = entriesOf(document);
  const groups = groupByTag(entries);
  const serverUrl = document.servers[0]?.url ?? "";
  if (tag === undefined) {
    return (
      <>
        {document.info.description.split("\n\n").map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
        <p>
          Base URL <code>{serverUrl}</code> · version {document.info.version} · machine-readable document:{" "}
          <a href={documentUrl}>{documentUrl}</a>
        </p>
        <nav aria-label="Operations" className="card op-index">
          <h2>Operations</h2>
          {groups.map(([groupTag, items]) => (
            <div key={groupTag}>
              <h3>
                <a href={`${basePath}/${tagSlug(groupTag)}`}>{groupTag}</a>
              </h3>
              <ul>
                {items.map((entry) => (
                  <li key={entry.op.operationId}>
                    <a href={`${basePath}/${tagSlug(groupTag)}#${entry.op.operationId}`}>
                      <code>{titleOf(entry)}</code>
                    </a>{" "}
                    <span className="muted">{entry.op.summary}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </>
    );
  }
  const items = groups.find(([groupTag]) => groupTag === tag)?.[1] ?? [];
  const body = (
    <>
      <nav aria-label="Reference sections" className="portal-nav reference-tags">
        <a href={basePath}>Index</a>
        {groups.map(([groupTag]) => (
          <a key={groupTag} href={`${basePath}/${tagSlug(groupTag)}`} aria-current={groupTag === tag ? "page" : undefined}>
            {groupTag}
          </a>
        ))}
      </nav>
      <p>
        Base URL <code>{serverUrl}</code> · machine-readable document: <a href={documentUrl}>{documentUrl}</a>
      </p>
      <ul className="op-index card">
        {items.map((entry) => (
          <li key={entry.op.operationId}>
            <a href={`#${entry.op.operationId}`}>
              <code>{titleOf(entry)}</code>
            </a>{" "}
            <span className="muted">{entry.op.summary}</span>
          </li>
        ))}
      </ul>
      {tryIt ? beforeTryIt : null}
      {tryIt ? <TryItPanel /> : null}
      {items.map((entry) => (
        <OperationSection key={`${entry.method} ${entry.path}`} entry={entry} tryIt={Boolean(tryIt)} />
      ))}
    </>
  );
  if (!tryIt) return body;
  // Requests go to this site's own origin: the path of the base URL, never its host. This tag's operations come first in the panel's list.
  const ordered = [...items, ...entries.filter((e) => !items.includes(e))];
  return (
    <TryItProvider
      operations={ordered.map((e) =>
        items.includes(e)
          ? tryItOperation(e)
          : { ...tryItOperation(e), docHref: `${basePath}/${tagSlug(tagOf(e.op))}#${e.op.operationId}` },
      )}
      apiPath={new URL(serverUrl || "/", "http://localhost").pathname.replace(/\/$/, "")}
      serverUrl={serverUrl}
      credentialKind={tryIt}
      uploadMetadata={uploadMetadata}
    >
      {body}
    </TryItProvider>
  );
}
