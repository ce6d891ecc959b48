import { getEnv } from "../config/env";
import { proxyAppendedValue } from "../net/forwarded";
import { isLoopbackAddress } from "../net/loopback";
import { peerAddress } from "../net/peer-address";

/**
 * Whether the client reached us over HTTPS: from the connection itself, or
 * from X-Forwarded-Proto only when TRUST_PROXY says a proxy sets it (a client
 * could otherwise claim HTTPS over plain HTTP). Behind the one trusted proxy
 * only the value it appended counts: the last (`https, http` is http).
 */
export function isHttpsRequest(request: Request, trustProxy = getEnv().TRUST_PROXY): boolean {
  if (new URL(request.url).protocol === "https:" && !request.headers.has("x-forwarded-proto")) return true;
  if (!trustProxy) return false;
  return proxyAppendedValue(request.headers, "x-forwarded-proto")?.toLowerCase() === "https";
}

/**
 * The results API's upload rule: HTTPS, or (ALLOW_HTTP_LOOPBACK=1, a local
 * run whose APP_URL is a loopback origin, checked at start) plain HTTP from
 * a loopback address: a request that never left the machine, so there is
 * no network for the key pair to be read on (docs/results-api.md "HTTPS for uploads").
 */
export function uploadTransportAllowed(request: Request, env: { TRUST_PROXY: boolean; ALLOW_HTTP_LOOPBACK: boolean } = getEnv()): boolean {
  if (isHttpsRequest(request, env.TRUST_PROXY)) return true;
  return env.ALLOW_HTTP_LOOPBACK && isLoopbackAddress(peerAddress(request, env.TRUST_PROXY));
}
