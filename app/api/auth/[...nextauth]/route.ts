import NextAuth from "next-auth";
import { getAuthOptions, lockedAddressResponse } from "@/server/auth/next-auth";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options hold a secret read from the database, so the handler is built per request.
async function handler(request: Request, context: RouteContext) {
  // The sign-in throttle's per-address lock answers 429 here, as on the OAuth sign-in page (docs/auth.md).
  if (request.method === "POST" && (await context.params).nextauth.join("/") === "callback/credentials") {
    const refused = await lockedAddressResponse(request);
    if (refused) return refused;
  }
  return NextAuth(await getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
