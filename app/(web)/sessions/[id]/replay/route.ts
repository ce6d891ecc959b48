import { notFound } from "@/server/errors";
import { signedInRoute } from "@/server/http/signed-in-route";
import { readSessionReplay } from "@/server/replay/session-replay";

/** The session page's replay artifact, for the signed-in people who may open the session (owner, crew, their coaches); signed out is the same 404 as not yours. */
export const GET = signedInRoute(async ({ db, user, params }) => readSessionReplay(db, { userId: user.id, resultId: params.id }), {
  whenSignedOut: notFound("Result"),
});
