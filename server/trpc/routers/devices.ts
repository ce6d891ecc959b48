import { renameDevice, ZDeviceLabel } from "../../devices/devices";
import { protectedProcedure, router } from "../init";

export const devicesRouter = router({
  rename: protectedProcedure.input(ZDeviceLabel).mutation(({ ctx, input }) => renameDevice(ctx.db, ctx.user.id, input)),
});
