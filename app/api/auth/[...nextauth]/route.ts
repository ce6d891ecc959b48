import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/next-auth";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options hold a secret read from the database, so the handler is built per request.
async function handler(request: Request, context: RouteContext) {
  return NextAuth(await getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
