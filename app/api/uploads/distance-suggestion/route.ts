import { readUploadForm } from "@/server/http/upload-form";
import { signedInRoute } from "@/server/http/signed-in-route";
import { parseSuggestionVessel, suggestUploadDistance } from "@/server/results/distance-suggestion";

/** The upload page's pre-analysis of a chosen file: the distance to suggest; stores nothing (docs/web-app.md "Upload"). */
export const POST = signedInRoute(async ({ db, request, user }) => {
  const form = await readUploadForm(request);
  const data = await suggestUploadDistance(db, { user, file: form.file, vesselId: parseSuggestionVessel(form.metadata) });
  return Response.json({ data });
});
