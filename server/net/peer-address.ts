import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { clientIp } from "./client-ip";

/**
 * The address of the connection a request came in on. Next.js gives route
 * handlers a web `Request` without its socket, and the `X-Forwarded-For` it
 * adds is only a default (a client's own header is kept), so a client could
 * claim to be 127.0.0.1. Node publishes every incoming request on the
 * `http.server.request.start` diagnostics channel before the server sees it:
 * there we replace whatever the client sent in this header with the socket's
 * own address, so the header can only ever hold the truth.
 */
export const PEER_ADDRESS_HEADER = "x-paddle-peer-address";

const installed = Symbol.for("paddle-results.peer-address-stamp");

export function installPeerAddressStamp(): void {
  const g = globalThis as typeof globalThis & { [installed]?: boolean };
  if (g[installed]) return;
  g[installed] = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
  });
}

/**
 * Who is on the other end: behind the trusted proxy (TRUST_PROXY=1) the
 * address that proxy appended to X-Forwarded-For, otherwise the socket's
 * (stamped above). Undefined when it cannot be known.
 */
export function peerAddress(request: Request, trustProxy: boolean): string | undefined {
  if (trustProxy) return clientIp(request.headers, true);
  return request.headers.get(PEER_ADDRESS_HEADER) || undefined;
}
