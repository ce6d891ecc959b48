import { getEnv } from "../config/env";
import { proxyAppendedValue } from "./forwarded";

/**
 * The client's IP address, when it can be known: only behind a trusted proxy
 * (TRUST_PROXY=1), from the right-most X-Forwarded-For entry, the one our
 * proxy appended (entries to its left are whatever the client sent).
 * Without a trusted proxy the header is the client's word, so: undefined.
 */
export function clientIp(headers: Headers, trustProxy = getEnv().TRUST_PROXY): string | undefined {
  if (!trustProxy) return undefined;
  const ip = proxyAppendedValue(headers, "x-forwarded-for");
  return ip && ip.length <= 64 ? ip : undefined;
}
