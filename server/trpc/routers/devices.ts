import { z } from "zod";
import { getDeviceJobFor, requestDeviceDelete, requestDeviceFetch, type DeviceJob } from "../../devices/device-jobs";
import { deleteDevice } from "../../devices/delete-device";
import { renameDevice, ZDeviceLabel } from "../../devices/devices";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

/** What the devices page shows of a file job. */
const jobStatus = (job: DeviceJob) => ({
  jobId: job.publicId,
  kind: job.kind,
  state: job.state,
  deletedFiles: job.deletedFiles,
  error: job.state === "failed" ? job.error : null,
  downloadUrl: job.kind === "fetch" && job.state === "succeeded" ? `/devices/jobs/${job.publicId}/download` : null,
});
const web = (userId: number) => ({ subjectUserId: userId, applicationId: null });

export const devicesRouter = router({
  rename: protectedProcedure.input(ZDeviceLabel).mutation(({ ctx, input }) => renameDevice(ctx.db, ctx.user.id, input)),
  /** Fetch original: a copy of the stored encrypted file, downloadable once. */
  fetchOriginal: protectedProcedure
    .input(z.object({ deviceId: z.number().int().positive(), filename: z.string().min(1).max(255) }))
    .mutation(async ({ ctx, input }) => jobStatus(await requestDeviceFetch(ctx.db, { requester: web(ctx.user.id), ...input }))),
  /** Delete files: removes the unit's stored originals; sessions keep their processed data. */
  deleteFiles: protectedProcedure
    .input(z.object({ deviceId: z.number().int().positive() }))
    .mutation(async ({ ctx, input }) =>
      jobStatus(await requestDeviceDelete(ctx.db, { subjectUserId: ctx.user.id, deviceId: input.deviceId })),
    ),
  /** Only a unit with no stored files. */
  delete: protectedProcedure
    .input(z.object({ deviceId: z.number().int().positive().max(INT4_MAX) }))
    .mutation(({ ctx, input }) => deleteDevice(ctx.db, ctx.user.id, input.deviceId)),
  job: protectedProcedure
    .input(z.object({ jobId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }))
    .query(async ({ ctx, input }) => jobStatus(await getDeviceJobFor(ctx.db, web(ctx.user.id), input.jobId))),
});
