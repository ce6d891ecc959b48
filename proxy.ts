import { NextResponse, type NextRequest } from "next/server";

/**
 * Passes the requested path to server layouts, so a signed-out visitor is
 * sent to sign-in and then back to the page they asked for.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-request-path", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/((?!api/|_next/static|_next/image|favicon.ico).*)"] };
