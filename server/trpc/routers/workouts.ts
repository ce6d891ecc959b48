import { z } from "zod";
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  importTemplate,
  updateTemplate,
  ZTemplateInput,
} from "../../workouts/templates";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const ZId = z.object({ id: z.number().int().positive().max(INT4_MAX) });
const created = (t: { id: number; name: string }) => ({ id: t.id, name: t.name });

/** Workout templates in the web app (docs/workouts.md "Stored templates"): every write is the owner's. */
export const workoutsRouter = router({
  create: protectedProcedure
    .input(ZTemplateInput)
    .mutation(async ({ ctx, input }) => created(await createTemplate(ctx.db, ctx.user.id, input))),
  update: protectedProcedure
    .input(ZTemplateInput.extend(ZId.shape))
    .mutation(async ({ ctx, input }) => created(await updateTemplate(ctx.db, ctx.user.id, input.id, input))),
  duplicate: protectedProcedure
    .input(ZId)
    .mutation(async ({ ctx, input }) => created(await duplicateTemplate(ctx.db, ctx.user.id, input.id))),
  delete: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.user.id, input.id)),
  import: protectedProcedure
    .input(z.object({ text: z.string().max(1_000_000, "The file is too large"), name: z.string().max(1000).optional() }))
    .mutation(async ({ ctx, input }) => created(await importTemplate(ctx.db, ctx.user.id, input.text, input.name))),
});
