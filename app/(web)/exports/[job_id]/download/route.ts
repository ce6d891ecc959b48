import { getCurrentUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { exportFileResponse } from "@/server/exports/download-response";
import { getExportJobFor, readExportFile } from "@/server/exports/export-jobs";
import { AppError } from "@/server/errors";

/** The web app's export download: the stored file of one of the user's web export jobs, byte for byte what the API serves. */
export async function GET(_request: Request, { params }: { params: Promise<{ job_id: string }> }) {
  const user = await getCurrentUser();
  if (!user) return new Response("Please sign in.", { status: 401 });
  try {
    const db = getDb();
    const job = await getExportJobFor(db, { subjectUserId: user.id, applicationId: null }, (await params).job_id);
    return exportFileResponse(await readExportFile(db, job));
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return new Response("Not found", { status: 404 });
    throw error;
  }
}
