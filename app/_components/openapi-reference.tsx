/**
 * A readable reference of an OpenAPI 3.1 document, rendered on the server
 * from the same document the API serves (no third-party viewer, nothing
 * fetched from elsewhere).
 */
type Schema = { type?: string | string[]; description?: string; properties?: Record<string, Schema>; items?: Schema; required?: string[]; enum?: unknown[]; anyOf?: Schema[]; format?: string; pattern?: string; minimum?: number; maximum?: number };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
  [extension: `x-${string}`]: unknown;
};
export type OpenApiDocument = { info: { title: string; version: string; description: string }; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

function typeOf(schema: Schema | undefined): string {
  if (!schema) return "";
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  const base = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  const range = schema.minimum !== undefined || schema.maximum !== undefined ? ` ${schema.minimum ?? ""}…${schema.maximum ?? ""}` : "";
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

export function OpenApiReference({ document, documentUrl }: { document: OpenApiDocument; documentUrl: string }) {
  return (
    <>
      <p>{document.info.description}</p>
      <p>
        Base URL <code>{document.servers[0]?.url}</code> · version {document.info.version} · machine-readable document: <a href={documentUrl}>{documentUrl}</a>
      </p>
      {Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, op]) => (
          <section className="card" key={`${method} ${path}`} id={op.operationId}>
            <h2>
              <code>
                {method.toUpperCase()} {path}
              </code>
            </h2>
            <p>
              {op.summary}
              {op.security?.length ? <span className="muted"> · credential: {op.security.map((s) => Object.keys(s)[0]).join(" or ")}</span> : <span className="muted"> · no credential</span>}
              {op["x-scopes"] ? <span className="muted"> · scopes: {(op["x-scopes"] as string[]).join(", ")}</span> : null}
              {op["x-surfaces"] ? <span className="muted"> · surfaces: {(op["x-surfaces"] as string[]).join(", ")}</span> : null}
            </p>
            {op.description ? <p>{op.description}</p> : null}
            {op.parameters?.length ? (
              <table>
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
                        {p.required ? " *" : ""}
                      </td>
                      <td>{p.in}</td>
                      <td>{typeOf(p.schema)}</td>
                      <td>{p.description ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {op.requestBody
              ? Object.entries(op.requestBody.content).map(([type, content]) => (
                  <div key={type}>
                    <h3>Request body ({type})</h3>
                    <Fields schema={content.schema} />
                  </div>
                ))
              : null}
            <h3>Responses</h3>
            <ul>
              {Object.entries(op.responses).map(([status, response]) => (
                <li key={status}>
                  <strong>{status}</strong> {response.description}
                  {response.content?.["application/json"] && status.startsWith("2") ? <Fields schema={response.content["application/json"].schema} /> : null}
                </li>
              ))}
            </ul>
          </section>
        )),
      )}
    </>
  );
}
