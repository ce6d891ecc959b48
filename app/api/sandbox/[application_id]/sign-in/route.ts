import { NextResponse } from "next/server";
import { AppError } from "@/server/errors";
import { signedInRoute } from "@/server/http/signed-in-route";
import { signInAsSandbox } from "@/server/sandbox/sign-in-as";

/** The portal's "Sign in as sandbox person" (docs/sandbox.md). JSON only: a cross-site form cannot send it. */
export const POST = signedInRoute(async ({ db, request, user, params }) => {
  if (!request.headers.get("content-type")?.startsWith("application/json")) throw new AppError("invalid", "Send JSON");
  const applicationId = /^\d{1,9}$/.test(params.application_id ?? "") ? Number(params.application_id) : null;
  if (!applicationId) throw new AppError("not_found", "Sandbox not found");
  const cookies = await signInAsSandbox(db, user, applicationId, request.headers.get("cookie"));
  const response = NextResponse.json({ location: "/" });
  for (const cookie of cookies) response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
});
