import { readUploadForm } from "@/server/http/upload-form";
import { signedInRoute } from "@/server/http/signed-in-route";
import { uploadResult } from "@/server/results/upload-result";

/** The web upload page's endpoint: the results API's domain function, signed in with the app session; field errors come back for the form. */
export const POST = signedInRoute(async ({ db, request, user }) => {
  const form = await readUploadForm(request);
  const data = await uploadResult(db, { user, createdVia: "web", keyPairId: null, file: form.file, metadata: form.metadata });
  return Response.json({ data }, { status: 201 });
});
