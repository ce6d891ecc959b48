/** The shapes an API reference hands its "Try it" panel (app/_components/try-it.tsx) and the sample requests. */
export interface TryItParam {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  /** Human-readable type, e.g. "integer 1…100". */
  type: string;
  description?: string;
  /** Allowed values (enums, booleans): offered as a list. */
  choices?: string[];
  numeric: boolean;
}

export interface TryItOperation {
  id: string;
  method: string;
  /** Path template relative to the API base, e.g. "/sessions/{session_id}". */
  path: string;
  tag: string;
  summary: string;
  /** Credentials the operation accepts, from its `security` (empty: none needed). */
  credentials: TryItCredential[];
  params: TryItParam[];
  jsonBody: boolean;
  /** A multipart body (the results API's upload): a device file and its metadata, chosen in the panel. */
  multipart: boolean;
  /** The content type of a success body that is a file (a PDF, an export, an original), not JSON; null for JSON. */
  binary: string | null;
  /** The smallest JSON body the operation accepts (the SDK sample's body while the panel's is empty). */
  exampleBody?: string;
  /** Where its documentation is: another tag's page of the reference, or this page ("#id" when absent). */
  docHref?: string;
}

/** `token`: an OAuth access token (Data API); `keyPair` / `publicKey`: a results API key pair, or its public half alone. */
export type TryItCredential = "token" | "keyPair" | "publicKey";
/** What the panel asks for: one access token, or a key pair. */
export type TryItCredentialKind = "token" | "keyPair";
