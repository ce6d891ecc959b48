import type { TryItCredentialKind, TryItOperation, TryItParam } from "./try-it-types";
import type { SampleRequest } from "./code-samples";
import type { SdkParam } from "./sdk-samples";

/**
 * The request the "Try it" panel would send, for its code samples: filled
 * parameters, placeholders for the rest. `api` says which client the SDK
 * sample uses (the panel's credential: an access token is the Data API's, a
 * key pair the results API's).
 */
export type SampleValues = Record<string, string>;
export const paramKey = (p: Pick<TryItParam, "in" | "name">) => `${p.in}:${p.name}`;

/** The upload's metadata part: the fields the results API requires, naming a track and an athlete of the person's own. */
export const uploadMetadata = ({ trackId, athleteId }: { trackId: number; athleteId: number }) =>
  JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });

/**
 * The metadata the Try it panel starts from when the page gives none: example ids. The portal's pages pass the
 * person's own (app/_lib/own-upload-ids.ts) and, for an account with no track or athlete, say to create them first.
 */
export const MULTIPART_METADATA_EXAMPLE = uploadMetadata({ trackId: 1, athleteId: 1 });

const kindOf = (p: TryItParam): SdkParam["kind"] => (p.numeric ? "number" : /^boolean\b/.test(p.type) ? "boolean" : "string");

export function sampleRequest(
  op: TryItOperation,
  serverUrl: string,
  values: SampleValues,
  body: string,
  credentialKind: TryItCredentialKind,
  metadata = MULTIPART_METADATA_EXAMPLE,
): SampleRequest {
  let path = op.path;
  for (const p of op.params.filter((p) => p.in === "path")) {
    const value = (values[paramKey(p)] ?? "").trim();
    if (value) path = path.replace(`{${p.name}}`, encodeURIComponent(value));
  }
  const url = new URL(`${serverUrl.replace(/\/$/, "")}${path}`);
  for (const p of op.params.filter((p) => p.in === "query")) {
    const value = values[paramKey(p)] ?? "";
    if (value !== "") url.searchParams.append(p.name, value);
  }
  const headers = op.params
    .filter((p) => p.in === "header" && (values[paramKey(p)] ?? "") !== "")
    .map((p) => [p.name, values[paramKey(p)]] as [string, string]);
  // Path placeholders stay readable ({id}), not percent-encoded.
  const shownUrl = url.toString().replace(/%7B([A-Za-z_]+)%7D/g, "{$1}");
  const credential: SampleRequest["credential"] = op.credentials.includes("token")
    ? "token"
    : op.credentials.includes("keyPair")
      ? "keyPair"
      : op.credentials.includes("publicKey")
        ? "publicKey"
        : "none";
  const sdkParams = (place: TryItParam["in"]) =>
    op.params
      .filter((p) => p.in === place)
      .map((p): SdkParam => ({
        name: p.name,
        value: values[paramKey(p)] ?? "",
        kind: kindOf(p),
        required: p.required,
        example: p.choices?.[0],
      }));
  return {
    method: op.method.toUpperCase(),
    url: shownUrl,
    credential,
    headers,
    jsonBody: op.jsonBody ? body || "{}" : undefined,
    multipart: op.multipart ? { fileField: "file", fileName: "session.svc", textFields: [["metadata", metadata]] } : undefined,
    sdk: {
      api: credentialKind === "token" ? "data" : "results",
      method: op.method.toUpperCase(),
      path: op.path,
      siteUrl: serverUrl.replace(/\/?api\/v1\/?$/, ""),
      publicKeyOnly: op.credentials.includes("publicKey"),
      pathParams: sdkParams("path"),
      query: sdkParams("query"),
      headers: sdkParams("header"),
      // A typed client will not compile `{}` where members are required: an empty panel shows the smallest valid body.
      jsonBody: op.jsonBody ? body || op.exampleBody || "{}" : undefined,
      upload: op.multipart ? { fileName: "session.svc", metadata } : undefined,
      binary: op.binary,
    },
  };
}
