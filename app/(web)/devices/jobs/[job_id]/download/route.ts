import { consumeDeviceFetch } from "@/server/devices/device-jobs";
import { deviceFileResponse } from "@/server/http/data-api/operations/devices";
import { signedInRoute } from "@/server/http/signed-in-route";

/** The devices page's one-time download of a fetched original (a POST: it consumes the copy); used or expired is the wrapper's 404. */
export const POST = signedInRoute(async ({ db, user, params }) =>
  deviceFileResponse(await consumeDeviceFetch(db, { subjectUserId: user.id, applicationId: null }, params.job_id)),
);
