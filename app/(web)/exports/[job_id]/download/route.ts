import { exportFileResponse } from "@/server/exports/download-response";
import { getExportJobFor, readExportFile } from "@/server/exports/export-jobs";
import { signedInRoute } from "@/server/http/signed-in-route";

/** The web app's export download: the stored file of one of the user's web export jobs, byte for byte what the API serves. */
export const GET = signedInRoute(async ({ db, user, params }) =>
  exportFileResponse(await readExportFile(db, await getExportJobFor(db, { subjectUserId: user.id, applicationId: null }, params.job_id))),
);
