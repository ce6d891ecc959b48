import { getCurrentUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { consumeDeviceFetch } from "@/server/devices/device-jobs";
import { AppError } from "@/server/errors";
import { deviceFileResponse } from "@/server/http/data-api/operations/devices";

/** The devices page's one-time download of a fetched original (a POST: it consumes the copy). */
export async function POST(_request: Request, { params }: { params: Promise<{ job_id: string }> }) {
  const user = await getCurrentUser();
  if (!user) return new Response("Please sign in.", { status: 401 });
  try {
    return deviceFileResponse(await consumeDeviceFetch(getDb(), { subjectUserId: user.id, applicationId: null }, (await params).job_id));
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return new Response("Not found: this file was already downloaded or has expired.", { status: 404 });
    throw error;
  }
}
