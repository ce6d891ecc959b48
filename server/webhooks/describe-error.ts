import http from "node:http";
import { PostTimeout, type SafePostResult } from "./safe-post";

/**
 * Why a webhook attempt failed, in words an integrator understands, with the
 * technical code in brackets (docs/webhooks.md "The delivery log"). Today's
 * Node errors say `getaddrinfo ENOTFOUND example.com`; the log says "The host
 * example.com could not be found (DNS: ENOTFOUND)".
 */
export interface FailureDescription {
  /** Short and stable, for filtering and tests: dns_not_found, connection_refused, timeout, tls, blocked, http_status, … */
  code: string;
  /** One or two sentences for a person. */
  words: string;
  /** The message behind it, as the runtime gave it. */
  detail: string;
}

type Failure = Extract<SafePostResult, { ok: false }>;

const TLS_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  CERT_NOT_YET_VALID: "its TLS certificate is not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its TLS certificate chain ends in a self-signed certificate no public authority issued",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate could not be verified: the intermediate certificates are missing",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "its TLS certificate was issued by an authority that is not publicly trusted",
  UNABLE_TO_GET_ISSUER_CERT: "its TLS certificate was issued by an authority that is not publicly trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host name",
  CERT_REVOKED: "its TLS certificate has been revoked",
  ERR_SSL_WRONG_VERSION_NUMBER: "it did not speak TLS on that port (is it plain HTTP?)",
  EPROTO: "the TLS handshake failed",
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`.replace(".0 s", " s");

function errorCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  // An injected resolver (tests) may throw a plain error naming the code.
  const match = /\b(ENOTFOUND|EAI_AGAIN|ENODATA|ESERVFAIL)\b/.exec(cause instanceof Error ? cause.message : "");
  return match?.[1];
}

function reasonPhrase(status: number): string {
  return http.STATUS_CODES[status] ?? "";
}

/** Describes a failed attempt; `url` is the endpoint's URL (the host named in the words). */
export function describeFailure(result: Failure, url: string): FailureDescription {
  let host = url;
  try {
    const parsed = new URL(result.response?.url ?? url);
    host = parsed.host;
  } catch {
    // keep the raw text
  }
  const detail = result.error;
  if (result.status !== null) {
    if (result.error === "too many redirects")
      return {
        code: "too_many_redirects",
        words: `The endpoint kept redirecting (the last answer was ${result.status}); at most 3 redirects are followed.`,
        detail,
      };
    return {
      code: "http_status",
      words: `The endpoint answered ${result.status} ${reasonPhrase(result.status)}`.trimEnd() + "; only a 2xx status counts as delivered.",
      detail,
    };
  }
  if (result.blocked) {
    const reason = result.error.replace(/^blocked: /, "");
    return {
      code: "blocked",
      words: `Not sent: ${reason}. Webhooks go only to public addresses (protection against requests into private networks).`,
      detail,
    };
  }
  const cause = result.cause;
  if (cause instanceof PostTimeout)
    return cause.connected
      ? {
          code: "timeout",
          words: `The endpoint accepted the connection but sent no response within ${seconds(cause.timeoutMs)} (the time limit for an attempt).`,
          detail,
        }
      : { code: "timeout", words: `Could not connect to ${host} within ${seconds(cause.timeoutMs)}.`, detail };
  const code = errorCode(cause);
  const hostname = host.replace(/:\d+$/, "");
  const words = describeCode(code, hostname, host);
  return words ? { code: words[0], words: `${words[1]} (${code})`.replace(" (undefined)", ""), detail } : fallback(detail);
}

function describeCode(code: string | undefined, hostname: string, host: string): [string, string] | null {
  switch (code) {
    case "ENOTFOUND":
    case "ENODATA":
      return ["dns_not_found", `The host ${hostname} could not be found (DNS: ${code}); check the URL's spelling and its DNS records.`];
    case "EAI_AGAIN":
    case "ESERVFAIL":
      return ["dns_failed", `The name ${hostname} could not be resolved just now (a temporary DNS failure, ${code}).`];
    case "ECONNREFUSED":
      return ["connection_refused", `The connection to ${host} was refused: nothing accepts connections on that port`];
    case "ECONNRESET":
    case "EPIPE":
      return ["connection_reset", `The connection to ${host} was closed by the other side before a response arrived`];
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return ["unreachable", `${hostname} could not be reached: there is no network route to it`];
    case "ETIMEDOUT":
      return ["timeout", `Connecting to ${host} timed out`];
    case "HPE_HEADER_OVERFLOW":
      return ["invalid_response", "The response's headers were larger than 16 KB, so the response was not read"];
    default:
      break;
  }
  if (code && TLS_WORDS[code]) return ["tls", `The secure connection to ${hostname} failed: ${TLS_WORDS[code]}`];
  if (code && /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO)/.test(code)) return ["tls", `The secure connection to ${hostname} failed`];
  if (code?.startsWith("HPE_")) return ["invalid_response", `The response from ${host} was not valid HTTP`];
  return null;
}

function fallback(detail: string): FailureDescription {
  return { code: "no_response", words: `No response: ${detail}`, detail };
}
