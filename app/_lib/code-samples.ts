import { sdkSample, type SdkSampleRequest } from "./sdk-samples";

/**
 * Code samples of one API request (curl, JavaScript fetch, Python requests,
 * and the TypeScript SDK when the request says which operation it is),
 * as the API reference's "Try it" panel shows them. Credentials never appear
 * in a sample: each reads them from environment variables, so a sample can be
 * copied, pasted into a chat or committed without leaking anything.
 */
export type SampleCredential = "none" | "token" | "keyPair" | "publicKey";

export interface SampleRequest {
  method: string;
  /** Absolute URL, query included. */
  url: string;
  credential: SampleCredential;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers: [string, string][];
  /** A JSON body, as text. */
  jsonBody?: string;
  /** A multipart upload: the file part's name and the other (text) parts. */
  multipart?: { fileField: string; fileName: string; textFields: [string, string][] };
  /** The operation as the SDK names it (path template, parameters by place): adds the SDK sample. */
  sdk?: SdkSampleRequest;
}

export interface CodeSamples {
  curl: string;
  javascript: string;
  python: string;
  /** TypeScript through @paddle-results/sdk (packages/sdk); null without `sdk` in the request. */
  sdk: string | null;
}

/** Environment variables the samples read. */
export const SAMPLE_ENV = { token: "SVC_ACCESS_TOKEN", publicKey: "SVC_PUBLIC_KEY", secretKey: "SVC_SECRET_KEY" } as const;

/** A single-quoted shell word ('it'\''s'). */
const shell = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
/** A JavaScript / Python string literal (JSON's escaping is valid in both). */
const literal = (value: string) => JSON.stringify(value);

function curlAuthorization(credential: SampleCredential): string | null {
  if (credential === "token") return `"Authorization: Bearer $${SAMPLE_ENV.token}"`;
  if (credential === "keyPair") return `"Authorization: Bearer $${SAMPLE_ENV.publicKey}.$${SAMPLE_ENV.secretKey}"`;
  if (credential === "publicKey") return `"Authorization: Bearer $${SAMPLE_ENV.publicKey}"`;
  return null;
}

function jsAuthorization(credential: SampleCredential): string | null {
  const env = (name: string) => `\${process.env.${name}}`;
  if (credential === "token") return `\`Bearer ${env(SAMPLE_ENV.token)}\``;
  if (credential === "keyPair") return `\`Bearer ${env(SAMPLE_ENV.publicKey)}.${env(SAMPLE_ENV.secretKey)}\``;
  if (credential === "publicKey") return `\`Bearer ${env(SAMPLE_ENV.publicKey)}\``;
  return null;
}

function pythonAuthorization(credential: SampleCredential): string | null {
  const env = (name: string) => `{os.environ['${name}']}`;
  if (credential === "token") return `f"Bearer ${env(SAMPLE_ENV.token)}"`;
  if (credential === "keyPair") return `f"Bearer ${env(SAMPLE_ENV.publicKey)}.${env(SAMPLE_ENV.secretKey)}"`;
  if (credential === "publicKey") return `f"Bearer ${env(SAMPLE_ENV.publicKey)}"`;
  return null;
}

function curl(r: SampleRequest): string {
  const lines = [`curl${r.method === "GET" ? "" : ` -X ${r.method}`} ${shell(r.url)}`];
  const auth = curlAuthorization(r.credential);
  if (auth) lines.push(`-H ${auth}`);
  for (const [name, value] of r.headers) lines.push(`-H ${shell(`${name}: ${value}`)}`);
  if (r.jsonBody !== undefined) lines.push(`-H 'Content-Type: application/json'`, `--data ${shell(r.jsonBody)}`);
  if (r.multipart) {
    lines.push(`-F ${shell(`${r.multipart.fileField}=@${r.multipart.fileName}`)}`);
    for (const [name, value] of r.multipart.textFields) lines.push(`-F ${shell(`${name}=${value}`)}`);
  }
  return lines.join(" \\\n  ");
}

function javascript(r: SampleRequest): string {
  const headers: string[] = [];
  const auth = jsAuthorization(r.credential);
  if (auth) headers.push(`Authorization: ${auth}`);
  for (const [name, value] of r.headers) headers.push(`${literal(name)}: ${literal(value)}`);
  if (r.jsonBody !== undefined) headers.push(`"Content-Type": "application/json"`);
  const pre: string[] = [];
  const options = [`method: ${literal(r.method)}`, `headers: { ${headers.join(", ")} }`];
  if (r.jsonBody !== undefined) options.push(`body: JSON.stringify(${r.jsonBody.trim() || "{}"})`);
  if (r.multipart) {
    pre.push(`import { readFile } from "node:fs/promises";`, "", "const form = new FormData();");
    pre.push(
      `form.append(${literal(r.multipart.fileField)}, new Blob([await readFile(${literal(r.multipart.fileName)})]), ${literal(r.multipart.fileName)});`,
    );
    for (const [name, value] of r.multipart.textFields) pre.push(`form.append(${literal(name)}, ${literal(value)});`);
    pre.push("");
    options.push("body: form");
  }
  return [
    ...pre,
    `const response = await fetch(${literal(r.url)}, {\n  ${options.join(",\n  ")},\n});`,
    `console.log(response.status, response.headers.get("content-type")?.includes("json") ? await response.json() : await response.blob());`,
  ].join("\n");
}

function python(r: SampleRequest): string {
  const headers: string[] = [];
  const auth = pythonAuthorization(r.credential);
  if (auth) headers.push(`"Authorization": ${auth}`);
  for (const [name, value] of r.headers) headers.push(`${literal(name)}: ${literal(value)}`);
  const args = [literal(r.url)];
  if (headers.length) args.push(`headers={${headers.join(", ")}}`);
  const imports = [
    ...(r.credential === "none" ? [] : ["import os"]),
    ...(r.jsonBody !== undefined ? ["import json"] : []),
    "import requests",
  ];
  if (r.jsonBody !== undefined) args.push(`json=json.loads(${literal(r.jsonBody.trim() || "{}")})`);
  if (r.multipart) {
    args.push(`files={${literal(r.multipart.fileField)}: open(${literal(r.multipart.fileName)}, "rb")}`);
    if (r.multipart.textFields.length)
      args.push(`data={${r.multipart.textFields.map(([n, v]) => `${literal(n)}: ${literal(v)}`).join(", ")}}`);
  }
  args.push("timeout=60");
  return [
    ...imports,
    "",
    `response = requests.request(${literal(r.method)}, ${args.join(", ")})`,
    `print(response.status_code, response.json() if "json" in response.headers.get("content-type", "") else len(response.content))`,
  ].join("\n");
}

export function codeSamples(request: SampleRequest): CodeSamples {
  return {
    curl: curl(request),
    javascript: javascript(request),
    python: python(request),
    sdk: request.sdk ? sdkSample(request.sdk) : null,
  };
}
