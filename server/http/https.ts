import { getEnv } from "../config/env";

/**
 * Whether the client reached us over HTTPS: from the connection itself, or
 * from X-Forwarded-Proto only when TRUST_PROXY says a proxy sets it (a client
 * could otherwise claim HTTPS over plain HTTP).
 */
export function isHttpsRequest(request: Request, trustProxy = getEnv().TRUST_PROXY): boolean {
  if (new URL(request.url).protocol === "https:" && !request.headers.has("x-forwarded-proto")) return true;
  if (!trustProxy) return false;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}
