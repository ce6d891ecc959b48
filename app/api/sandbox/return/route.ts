import { NextResponse } from "next/server";
import { AppError } from "@/server/errors";
import { signedInRoute } from "@/server/http/signed-in-route";
import { returnFromSandbox } from "@/server/sandbox/sign-in-as";

/** "Back to my account" from a sandbox person's session (docs/sandbox.md). */
export const POST = signedInRoute(async ({ db, request, user }) => {
  if (!request.headers.get("content-type")?.startsWith("application/json")) throw new AppError("invalid", "Send JSON");
  const { cookies, location } = await returnFromSandbox(db, user, request.headers.get("cookie"));
  const response = NextResponse.json({ location });
  for (const cookie of cookies) response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
});
