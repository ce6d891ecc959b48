import { readUploadForm } from "@/server/http/upload-form";
import { signedInRoute } from "@/server/http/signed-in-route";
import { createTrainingFromUpload, parseTrainingUploadMetadata } from "@/server/trainings/create-training";

/** The web upload page's endpoint for a training: stores it queued; processing runs in the background (docs/trainings.md). */
export const POST = signedInRoute(async ({ db, request, user }) => {
  const form = await readUploadForm(request);
  const data = await createTrainingFromUpload(db, {
    user,
    createdVia: "web",
    file: form.file,
    ...parseTrainingUploadMetadata(form.metadata),
  });
  return Response.json({ data }, { status: 201 });
});
