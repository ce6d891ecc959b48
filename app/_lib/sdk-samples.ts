/**
 * The "TypeScript (SDK)" code sample of one request: the same call through
 * @paddle-results/sdk (packages/sdk), typed by its generated paths. Lists walk
 * every page with the SDK's iterators, jobs are created, waited for and
 * downloaded with its helpers, the upload goes through `uploadResult`.
 * Credentials come from the same environment variables as the other samples.
 * app/_lib/sdk-samples.test.ts type-checks the sample of every operation of
 * both documents against the SDK.
 */
export interface SdkParam {
  name: string;
  /** As typed in the panel; empty = not given. */
  value: string;
  kind: "number" | "boolean" | "string";
  required: boolean;
  /** A value to show while none is given (an enum's first value). */
  example?: string;
}

export interface SdkSampleRequest {
  api: "results" | "data";
  method: string;
  /** The document's path template, e.g. "/sessions/{session_id}". */
  path: string;
  /** The site's address (the API's base URL without /api/v1). */
  siteUrl: string;
  /** Operations that take the public key alone (vessels, categories, paces). */
  publicKeyOnly: boolean;
  pathParams: SdkParam[];
  query: SdkParam[];
  headers: SdkParam[];
  jsonBody?: string;
  /** A multipart upload (the results API's POST /results), with the example metadata. */
  upload?: { fileName: string; metadata: string };
  /** The content type of a success body that is a file, not JSON; null for JSON. */
  binary: string | null;
}

const literal = (value: string) => JSON.stringify(value);
const ENV = { token: "SVC_ACCESS_TOKEN", publicKey: "SVC_PUBLIC_KEY", secretKey: "SVC_SECRET_KEY" } as const;

function valueOf(p: SdkParam): string {
  if (p.value.trim() === "" && p.example !== undefined) return valueOf({ ...p, value: p.example, example: undefined });
  const value = p.value.trim();
  if (value === "") return p.kind === "number" ? `0 /* your ${p.name} */` : p.kind === "boolean" ? "true" : `${literal(`your-${p.name}`)}`;
  if (p.kind === "number" && /^-?\d+(\.\d+)?$/.test(value)) return value;
  if (p.kind === "boolean" && (value === "true" || value === "false")) return value;
  return literal(p.value);
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));
const objectOf = (entries: [string, string][]) =>
  `{ ${entries.map(([name, value]) => (name === value ? name : `${key(name)}: ${value}`)).join(", ")} }`;

/** A JSON value as a TypeScript literal: identifier keys unquoted, short arrays and objects of scalars on one line. */
function tsLiteral(value: unknown, indent: string): string {
  const scalar = (v: unknown) => v === null || typeof v !== "object" || (Array.isArray(v) && v.length === 0);
  if (Array.isArray(value)) {
    if (value.every(scalar)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    return `[\n${value.map((v) => `${indent}  ${tsLiteral(v, `${indent}  `)}`).join(",\n")},\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inline = `{ ${entries.map(([k, v]) => `${key(k)}: ${JSON.stringify(v)}`).join(", ")} }`;
    if (entries.every(([, v]) => scalar(v)) && inline.length <= 60) return inline;
    return `{\n${entries.map(([k, v]) => `${indent}  ${key(k)}: ${tsLiteral(v, `${indent}  `)}`).join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The JSON body as an object literal at the given indentation (as typed when it does not parse). */
function bodyLiteral(json: string, indent: string): string {
  try {
    return tsLiteral(JSON.parse(json.trim() || "{}"), indent);
  } catch {
    return json.trim() || "{}";
  }
}

/** The `{ params, body }` argument of the call; `extraQuery` adds the iterator's page or cursor. */
function callOptions(r: SdkSampleRequest, extraQuery: [string, string][] = []): string | null {
  const params: [string, string][] = [];
  const path = r.pathParams.map((p): [string, string] => [p.name, valueOf(p)]);
  const query = [
    ...r.query.filter((p) => p.required || p.value.trim() !== "").map((p): [string, string] => [p.name, valueOf(p)]),
    ...extraQuery,
  ];
  const headers = r.headers.filter((p) => p.required || p.value.trim() !== "").map((p): [string, string] => [p.name, valueOf(p)]);
  if (path.length) params.push(["path", objectOf(path)]);
  if (query.length) params.push(["query", objectOf(query)]);
  if (headers.length) params.push(["header", objectOf(headers)]);
  const options: string[] = [];
  if (params.length) options.push(`params: ${objectOf(params)}`);
  if (r.jsonBody !== undefined) options.push(`body: ${bodyLiteral(r.jsonBody, "  ")}`);
  if (r.binary) options.push(`parseAs: "arrayBuffer"`);
  return options.length ? `{\n  ${options.join(",\n  ")},\n}` : null;
}

const call = (r: SdkSampleRequest, extraQuery: [string, string][] = []) => {
  const options = callOptions(r, extraQuery);
  return `api.${r.method.toUpperCase()}(${literal(r.path)}${options ? `, ${options}` : ""})`;
};

function client(r: SdkSampleRequest): { factory: string; line: string } {
  if (r.api === "data")
    return {
      factory: "createDataApiClient",
      line: `const api = createDataApiClient({ baseUrl: ${literal(r.siteUrl)}, accessToken: process.env.${ENV.token}! });`,
    };
  const secret = r.publicKeyOnly ? "" : `, secretKey: process.env.${ENV.secretKey}!`;
  return {
    factory: "createResultsApiClient",
    line: `const api = createResultsApiClient({ baseUrl: ${literal(r.siteUrl)}, publicKey: process.env.${ENV.publicKey}!${secret} });`,
  };
}

export function sdkSample(r: SdkSampleRequest): string {
  const { factory, line } = client(r);
  const imports = new Set<string>([factory]);
  const fs = new Set<string>();
  let body: string[];
  const queryNames = r.query.map((p) => p.name);
  const isGet = r.method.toUpperCase() === "GET";
  const withoutPaging = (names: string[]) => ({ ...r, query: r.query.filter((p) => !names.includes(p.name)) });

  if (r.upload) {
    imports.add("uploadResult");
    fs.add("readFile");
    const idempotency = r.headers.find((p) => p.name === "Idempotency-Key" && p.value.trim() !== "");
    body = [
      `const uploaded = await uploadResult(api, {`,
      `  file: await readFile(${literal(r.upload.fileName)}),`,
      `  filename: ${literal(r.upload.fileName)},`,
      `  metadata: ${bodyLiteral(r.upload.metadata, "  ")},`,
      ...(idempotency ? [`  idempotencyKey: ${literal(idempotency.value)},`] : []),
      `});`,
      `console.log(uploaded.data);`,
    ];
  } else if (isGet && queryNames.includes("cursor")) {
    imports.add("paginateCursor");
    body = [
      `for await (const item of paginateCursor((cursor) => ${call(withoutPaging(["cursor"]), [["cursor", "cursor"]])})) {`,
      `  console.log(item);`,
      `}`,
    ];
  } else if (isGet && queryNames.includes("page")) {
    imports.add("paginatePages");
    body = [
      `for await (const item of paginatePages((page) => ${call(withoutPaging(["page"]), [["page", "page"]])})) {`,
      `  console.log(item);`,
      `}`,
    ];
  } else if (r.api === "data" && r.method.toUpperCase() === "POST" && r.path.endsWith("/exports")) {
    ["unwrap", "waitForExport", "downloadExport"].forEach((name) => imports.add(name));
    fs.add("writeFile");
    body = [
      `const created = await unwrap(${call(r)});`,
      `const job = await waitForExport(api, created.data.job_id); // polls with Retry-After and backoff`,
      `const file = await downloadExport(api, job.job_id);`,
      `await writeFile(file.filename ?? "export", file.bytes);`,
    ];
  } else if (r.api === "data" && r.method.toUpperCase() === "POST" && r.path.endsWith("/fetch")) {
    ["unwrap", "waitForDeviceJob", "downloadDeviceFile"].forEach((name) => imports.add(name));
    fs.add("writeFile");
    body = [
      `const created = await unwrap(${call(r)});`,
      `const job = await waitForDeviceJob(api, created.data.job_id);`,
      `const file = await downloadDeviceFile(api, job.job_id); // once: a second download is a 404`,
      `await writeFile(file.filename ?? "original.svc", file.bytes);`,
    ];
  } else if (r.path === "/exports/{job_id}/download" || r.path === "/devices/jobs/{job_id}/download") {
    const helper = r.path.startsWith("/exports") ? "downloadExport" : "downloadDeviceFile";
    imports.add(helper);
    fs.add("writeFile");
    body = [`const file = await ${helper}(api, ${valueOf(r.pathParams[0])});`, `await writeFile(file.filename ?? "download", file.bytes);`];
  } else if (r.binary) {
    imports.add("unwrap");
    fs.add("writeFile");
    const name = r.binary === "application/pdf" ? "report.pdf" : "download";
    body = [`const bytes = await unwrap(${call(r)});`, `await writeFile(${literal(name)}, new Uint8Array(bytes));`];
  } else {
    imports.add("unwrap");
    body = [`const body = await unwrap(${call(r)}); // throws a PaddleApiError (status, code, requestId) on failure`, `console.log(body);`];
  }
  return [
    ...(fs.size ? [`import { ${[...fs].join(", ")} } from "node:fs/promises";`] : []),
    `import { ${[...imports].join(", ")} } from "@paddle-results/sdk";`,
    "",
    line,
    ...body,
  ].join("\n");
}
