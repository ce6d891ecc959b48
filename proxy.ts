import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/server/db/client";
import { launchFrameAncestors } from "@/server/embeds/launch-embed";

const LAUNCH_PATH = /^\/api\/v1\/svcsim\/launch\/([^/]+)$/;

/**
 * Passes the requested path to server layouts, so a signed-out visitor is
 * sent to sign-in and then back to the page they asked for.
 *
 * The replay launch page gets its `Content-Security-Policy: frame-ancestors`
 * here, because a page cannot set its own response headers: the embed's one
 * approved origin, or 'none' (docs/replay.md "Launch").
 */
export async function proxy(request: NextRequest) {
  const launch = LAUNCH_PATH.exec(request.nextUrl.pathname);
  if (launch) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", await launchFrameAncestors(getDb(), launch[1]));
    response.headers.set("Referrer-Policy", "no-referrer");
    response.headers.set("X-Robots-Tag", "noindex");
    return response;
  }
  const headers = new Headers(request.headers);
  headers.set("x-request-path", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/((?!api/|_next/static|_next/image|favicon.ico).*)", "/api/v1/svcsim/launch/:token"] };
