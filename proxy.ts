import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/server/db/client";
import { launchFrameAncestors } from "@/server/embeds/launch-embed";
import { newRequestId } from "@/server/http/request-id";

const LAUNCH_PATH = /^\/api\/v1\/svcsim\/launch\/([^/]+)$/;

/**
 * Passes the requested path to server layouts, so a signed-out visitor is
 * sent to sign-in and then back to the page they asked for.
 *
 * The replay launch page gets its `Content-Security-Policy: frame-ancestors`
 * here, because a page cannot set its own response headers: the embed's one
 * approved origin, or 'none' (docs/replay.md "Launch").
 *
 * Under /api/v1 it otherwise only guards the path itself: a segment that is
 * not valid percent-encoded UTF-8 (`/sessions/%ED%A0%80`) would make Next's
 * own parameter decoding answer an HTML 500 before any operation runs; it is
 * a JSON 400 in the shape of the credential's API instead (issue 14, defect 1).
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith("/api/v1/") && !pathIsDecodable(pathname)) return undecodablePath(request);
  const launch = LAUNCH_PATH.exec(pathname);
  if (launch) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", await launchFrameAncestors(getDb(), launch[1]));
    response.headers.set("Referrer-Policy", "no-referrer");
    response.headers.set("X-Robots-Tag", "noindex");
    return response;
  }
  if (pathname.startsWith("/api/v1/")) return NextResponse.next();
  const headers = new Headers(request.headers);
  headers.set("x-request-path", pathname + search);
  return NextResponse.next({ request: { headers } });
}

function pathIsDecodable(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The two APIs' 400 bodies, by credential as in server/http/api-routing.ts (not through their formatters: the proxy runs before any route), with the one request id form. */
function undecodablePath(request: NextRequest): Response {
  const message = "the path is not valid percent-encoded UTF-8";
  const credential = /^Bearer\s+(\S+)/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (credential && !credential.startsWith("svcpk_")) {
    const requestId = newRequestId();
    return Response.json(
      { error: "invalid_request", error_description: message, request_id: requestId },
      { status: 400, headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } },
    );
  }
  const requestId = newRequestId();
  return Response.json(
    { error: "invalid_request", message, request_id: requestId },
    { status: 400, headers: { "X-Request-Id": requestId } },
  );
}

/**
 * Under /api/v1 only the launch page and paths holding a percent sign (the
 * only ones that can be undecodable) pass through here: every other API
 * request skips the proxy, which is measurable per-request work (docs/benchmarks.md).
 */
export const config = {
  matcher: ["/api/v1/svcsim/launch/:token", "/api/v1/:path(.*%.*)", "/((?!api/|_next/static|_next/image|favicon.ico).*)"],
};
