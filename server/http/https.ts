import { getEnv } from "../config/env";
import { proxyAppendedValue } from "./forwarded";

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
