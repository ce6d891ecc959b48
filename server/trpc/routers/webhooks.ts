import { z } from "zod";
import {
  createEndpoint,
  deleteEndpoint,
  redeliver,
  rotateEndpointSecret,
  sendTestEvent,
  updateEndpoint,
  ZEndpointInput,
} from "../../webhooks/endpoints";
import { getDeliveryAttempts, listApplicationEvents, listDeliveryLog, ZDeliveryLogFilters } from "../../webhooks/delivery-log";
import { protectedProcedure, router } from "../init";

const ZApp = z.object({ applicationId: z.number().int().positive() });
const ZEndpoint = ZApp.extend({ endpointId: z.string().min(1).max(64) });

/** Webhook endpoints of the owner's applications (docs/webhooks.md); the secret is in create/rotate responses only. */
export const webhooksRouter = router({
  create: protectedProcedure.input(ZApp.extend(ZEndpointInput.shape)).mutation(async ({ ctx, input }) => {
    const { applicationId, ...values } = input;
    const { endpoint, secret } = await createEndpoint(ctx.db, ctx.user.id, applicationId, values);
    return { id: endpoint.id, secret };
  }),
  update: protectedProcedure
    .input(ZEndpoint.extend(ZEndpointInput.partial().shape).extend({ enabled: z.boolean().optional() }))
    .mutation(({ ctx, input }) => {
      const { applicationId, endpointId, ...values } = input;
      return updateEndpoint(ctx.db, ctx.user.id, applicationId, endpointId, values);
    }),
  delete: protectedProcedure
    .input(ZEndpoint)
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.db, ctx.user.id, input.applicationId, input.endpointId)),
  rotateSecret: protectedProcedure
    .input(ZEndpoint.extend({ overlapHours: z.number().int().min(0).max(168) }))
    .mutation(async ({ ctx, input }) => {
      const { secret, previousSecretExpiresAt } = await rotateEndpointSecret(ctx.db, ctx.user.id, input.applicationId, input.endpointId, {
        overlapHours: input.overlapHours,
      });
      return { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
    }),
  sendTest: protectedProcedure
    .input(ZEndpoint)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.user.id, input.applicationId, input.endpointId)),
  redeliver: protectedProcedure
    .input(ZApp.extend({ deliveryId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }))
    .mutation(({ ctx, input }) => redeliver(ctx.db, ctx.user.id, input.applicationId, input.deliveryId)),
  /** The delivery log (docs/webhooks.md "The delivery log"): filters by event type, status and endpoint. */
  log: protectedProcedure.input(ZApp.extend(ZDeliveryLogFilters.shape)).query(({ ctx, input }) => {
    const { applicationId, ...filters } = input;
    return listDeliveryLog(ctx.db, ctx.user.id, applicationId, filters);
  }),
  attempts: protectedProcedure
    .input(ZApp.extend({ deliveryId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }))
    .query(({ ctx, input }) => getDeliveryAttempts(ctx.db, ctx.user.id, input.applicationId, input.deliveryId)),
  events: protectedProcedure
    .input(ZApp.extend(ZDeliveryLogFilters.pick({ eventType: true, before: true }).shape))
    .query(({ ctx, input }) => {
      const { applicationId, ...filters } = input;
      return listApplicationEvents(ctx.db, ctx.user.id, applicationId, filters);
    }),
});
