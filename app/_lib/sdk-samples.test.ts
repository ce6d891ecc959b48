import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { entriesOf, tryItOperation, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { dataApiDocument } from "@/server/http/data-api/openapi";
import { resultsApiDocument } from "@/server/http/results-api/openapi";
import { codeSamples } from "./code-samples";
import { paramKey, sampleRequest } from "./sample-request";

/**
 * The reference pages' SDK samples are code a developer pastes: each must
 * compile against the SDK (packages/sdk) and its generated types. The sample
 * of every operation of both documents, as the Try it panel builds it (empty,
 * and with some parameters filled in), is type-checked in one program.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVER = "https://paddle.example/api/v1";
const documents = [
  { kind: "keyPair" as const, document: resultsApiDocument("https://paddle.example") as unknown as OpenApiDocument },
  { kind: "token" as const, document: dataApiDocument("https://paddle.example") as unknown as OpenApiDocument },
];
const dir = mkdtempSync(path.join(tmpdir(), "sdk-samples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function samplesOf(values: (id: string) => Record<string, string>, body: (id: string) => string) {
  return documents.flatMap(({ kind, document }) =>
    entriesOf(document).map((entry) => {
      const op = tryItOperation(entry);
      return { id: `${kind}-${op.id}`, op, sample: codeSamples(sampleRequest(op, SERVER, values(op.id), body(op.id), kind)).sdk! };
    }),
  );
}

function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [path.join(ROOT, "node_modules/@types")],
    paths: { "@paddle-results/sdk": [path.join(ROOT, "packages/sdk/src/index.ts")] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || files.includes(d.file.fileName))
    .map((d) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe("SDK samples", () => {
  it("every operation's sample, empty and filled in, compiles against the SDK", { timeout: 180_000 }, () => {
    const empty = samplesOf(
      () => ({}),
      () => "",
    );
    const filled = samplesOf(
      (id) =>
        ({
          list_sessions: {
            [paramKey({ in: "query", name: "limit" })]: "10",
            [paramKey({ in: "query", name: "important" })]: "true",
            [paramKey({ in: "query", name: "competition" })]: "O'Brien cup",
          },
          create_session_export: {
            [paramKey({ in: "path", name: "session_id" })]: "12",
            [paramKey({ in: "header", name: "Idempotency-Key" })]: "retry-1",
          },
          list_results: { [paramKey({ in: "query", name: "per_page" })]: "50", [paramKey({ in: "query", name: "sort" })]: "dist" },
          get_result_pdf: { [paramKey({ in: "path", name: "id" })]: "7", [paramKey({ in: "query", name: "lang" })]: "es" },
          upload_result: { [paramKey({ in: "header", name: "Idempotency-Key" })]: "upload-1" },
        })[id] ?? {},
      (id) => (id === "create_session_export" ? '{"format":"pdf","splits":8}' : ""),
    );
    const all = [...empty.map((s) => ({ ...s, id: `${s.id}-empty` })), ...filled.map((s) => ({ ...s, id: `${s.id}-filled` }))];
    expect(all.length).toBeGreaterThan(2 * 60);
    const files = all.map(({ id, sample }) => {
      const file = path.join(dir, `${id}.ts`);
      writeFileSync(file, sample);
      return file;
    });
    // One deliberately wrong sample in the same program shows the check can fail.
    const broken = path.join(dir, "broken.ts");
    writeFileSync(
      broken,
      `import { createDataApiClient, unwrap } from "@paddle-results/sdk";\nconst api = createDataApiClient({ baseUrl: "x", accessToken: "t" });\nawait unwrap(api.GET("/sessions/{session_id}", { params: { path: { session_id: "twelve" } } }));\n`,
    );
    const errors = typeErrors([...files, broken]);
    expect(errors.filter((e) => !e.startsWith("broken.ts:"))).toEqual([]);
    expect(errors.join("\n")).toMatch(/^broken\.ts: .*not assignable to type 'number'/m);

    const byId = (list: typeof all, id: string) => list.find((s) => s.id === id)!.sample;
    expect(byId(all, "token-list_sessions-filled")).toContain('paginateCursor((cursor) => api.GET("/sessions"');
    expect(byId(all, "token-list_sessions-filled")).toContain(`competition: "O'Brien cup"`);
    expect(byId(all, "token-create_session_export-filled")).toContain("waitForExport(api, created.data.job_id)");
    expect(byId(all, "keyPair-list_results-filled")).toContain("paginatePages((page) =>");
    expect(byId(all, "keyPair-upload_result-filled")).toContain(`idempotencyKey: "upload-1"`);
  });
});
