import { parseIdempotencyKey } from "@/server/idempotency/idempotency";
import { uploadOnce } from "@/server/idempotency/upload-key";
import { readUploadForm } from "@/server/http/upload-form";
import { signedInRoute } from "@/server/http/signed-in-route";
import { createTrainingFromUpload, parseTrainingUploadMetadata } from "@/server/trainings/create-training";

/** The web upload page's endpoint for a training: stores it queued; processing runs in the background (docs/trainings.md). Idempotency-Key as for a session. */
export const POST = signedInRoute(async ({ db, request, user }) => {
  const key = parseIdempotencyKey(request.headers.get("idempotency-key"));
  const form = await readUploadForm(request);
  const { data } = await uploadOnce(db, { scope: `web:user:${user.id}`, path: "/api/uploads/trainings", key }, form, (tx, stagedOriginal) =>
    createTrainingFromUpload(
      tx,
      { user, createdVia: "web", file: form.file, ...parseTrainingUploadMetadata(form.metadata) },
      { stagedOriginal },
    ),
  );
  return Response.json({ data }, { status: 201 });
});
