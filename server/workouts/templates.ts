import { and, asc, count, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { workoutTemplates } from "../db/schema";
import { AppError, notFound } from "../errors";
import {
  inspectTemplateText,
  TEMPLATE_LIMITS,
  templateTotals,
  type NormalizedTemplate,
  type TemplateProblem,
  type WorkoutStep,
} from "./template";

/**
 * The workout templates a person keeps (docs/workouts.md "Stored templates"):
 * list, read, create, update, duplicate, delete and import, always for their
 * owner; someone else's template is the same not-found as an absent one.
 * What is stored is the normalized version-1 template (repeats expanded);
 * `compactSteps` folds runs back into repeat blocks for the editor.
 */

/** Templates one person may keep: bounds storage; the 1001st is a clear 409. */
export const MAX_TEMPLATES_PER_OWNER = 1000;
export const NAME_MAX = 128;

export const ZTemplateName = z
  .string()
  .trim()
  .min(1, "Enter a name")
  .max(NAME_MAX, `At most ${NAME_MAX} characters`)
  .refine((v) => !v.includes("\u0000"), "Must not contain NUL characters");

/** The editor's input: a name and the template as JSON text (validated by inspectTemplateText). */
export const ZTemplateInput = z.object({ name: ZTemplateName, text: z.string().max(1_000_000, "The template is too large") });
export type TemplateInput = z.input<typeof ZTemplateInput>;

export interface StoredTemplate {
  id: number;
  name: string;
  template: NormalizedTemplate;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: workoutTemplates.id,
  name: workoutTemplates.name,
  template: workoutTemplates.template,
  createdAt: workoutTemplates.createdAt,
  updatedAt: workoutTemplates.updatedAt,
};
const asStored = (row: { id: number; name: string; template: unknown; createdAt: Date; updatedAt: Date }): StoredTemplate => ({
  ...row,
  template: row.template as NormalizedTemplate,
});

/** The owner's templates in id (creation) order: all of them, or one keyset page after `afterId`. */
export async function listOwnTemplates(
  db: Db,
  ownerId: number,
  page?: { afterId: number | null; take: number },
): Promise<StoredTemplate[]> {
  const query = db
    .select(columns)
    .from(workoutTemplates)
    .where(and(eq(workoutTemplates.ownerUserId, ownerId), page?.afterId != null ? gt(workoutTemplates.id, page.afterId) : undefined))
    .orderBy(asc(workoutTemplates.id));
  return (await (page ? query.limit(page.take) : query)).map(asStored);
}

export async function getOwnTemplate(db: Db, ownerId: number, id: number): Promise<StoredTemplate> {
  const [row] = await db
    .select(columns)
    .from(workoutTemplates)
    .where(and(eq(workoutTemplates.id, id), eq(workoutTemplates.ownerUserId, ownerId)));
  if (!row) throw notFound("Workout template");
  return asStored(row);
}

/** "$.steps[0].distance_m: must be from 1 to 50000" lines, as the form shows them. */
export const problemLines = (problems: TemplateProblem[]) => problems.map((p) => `${p.path}: ${p.message}`);

/** Inspects the text; a template with problems is an AppError listing every one under the field `text`. */
function validTemplate(text: string, name: string | null): NormalizedTemplate {
  const inspection = inspectTemplateText(text);
  if (!inspection.valid) {
    throw new AppError(
      "invalid",
      `The workout template has ${inspection.problems.length === 1 ? "a problem" : `${inspection.problems.length} problems`}`,
      { text: problemLines(inspection.problems) },
      { problems: inspection.problems },
    );
  }
  // The stored name is the template's name: one name, whichever way it was given.
  return { ...inspection.template, name: name ?? inspection.template.name };
}

async function insertTemplate(db: Db, ownerId: number, name: string, template: NormalizedTemplate): Promise<StoredTemplate> {
  return db.transaction(async (tx) => {
    const [{ n }] = await tx.select({ n: count() }).from(workoutTemplates).where(eq(workoutTemplates.ownerUserId, ownerId));
    if (n >= MAX_TEMPLATES_PER_OWNER)
      throw new AppError("conflict", `You keep ${MAX_TEMPLATES_PER_OWNER} workout templates, the most allowed: delete one first`);
    const [row] = await tx
      .insert(workoutTemplates)
      .values({ ownerUserId: ownerId, name, template: { ...template, name } })
      .returning(columns);
    return asStored(row);
  });
}

export async function createTemplate(db: Db, ownerId: number, input: TemplateInput): Promise<StoredTemplate> {
  const { name, text } = ZTemplateInput.parse(input);
  return insertTemplate(db, ownerId, name, validTemplate(text, name));
}

export async function updateTemplate(db: Db, ownerId: number, id: number, input: TemplateInput): Promise<StoredTemplate> {
  const { name, text } = ZTemplateInput.parse(input);
  const template = validTemplate(text, name);
  const [row] = await db
    .update(workoutTemplates)
    .set({ name, template, updatedAt: new Date() })
    .where(and(eq(workoutTemplates.id, id), eq(workoutTemplates.ownerUserId, ownerId)))
    .returning(columns);
  if (!row) throw notFound("Workout template");
  return asStored(row);
}

/** A copy named "Copy of …" (cut to the name limit). */
export async function duplicateTemplate(db: Db, ownerId: number, id: number): Promise<StoredTemplate> {
  const source = await getOwnTemplate(db, ownerId, id);
  const name = `Copy of ${source.name}`.slice(0, NAME_MAX).trim();
  return insertTemplate(db, ownerId, name, source.template);
}

export async function deleteTemplate(db: Db, ownerId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(workoutTemplates)
    .where(and(eq(workoutTemplates.id, id), eq(workoutTemplates.ownerUserId, ownerId)))
    .returning({ id: workoutTemplates.id });
  if (!deleted.length) throw notFound("Workout template");
}

/**
 * Saves a shared version-1 workout (a pasted or uploaded file): inspected
 * first, nothing written when it has a problem. Named by `name`, else by the
 * template's own name (cut to 128 characters), else "Imported workout".
 */
export async function importTemplate(db: Db, ownerId: number, text: string, name?: string): Promise<StoredTemplate> {
  const given = name === undefined || name.trim() === "" ? null : ZTemplateName.parse(name);
  const template = validTemplate(text, given);
  const finalName = (given ?? template.name?.slice(0, NAME_MAX).trim()) || "Imported workout";
  return insertTemplate(db, ownerId, finalName, template);
}

export type EditorStep = WorkoutStep | { repeat: number; steps: EditorStep[] };

/**
 * Folds runs of identical step groups back into repeat blocks (one level), so
 * a stored 6×(500 m, 2 min) reads as it was written. Greedy: at each step, the
 * block covering the most steps (shortest block on a tie); expanding the
 * result gives back exactly `steps`.
 */
export function compactSteps(steps: WorkoutStep[]): EditorStep[] {
  const same = (a: WorkoutStep, b: WorkoutStep) => JSON.stringify(a) === JSON.stringify(b);
  const out: EditorStep[] = [];
  let i = 0;
  while (i < steps.length) {
    let best = { length: 1, times: 1 };
    for (let length = 1; length <= Math.floor((steps.length - i) / 2); length++) {
      let times = 1;
      while (
        times < TEMPLATE_LIMITS.maxRepeat &&
        i + (times + 1) * length <= steps.length &&
        steps.slice(i, i + length).every((s, k) => same(s, steps[i + times * length + k]))
      )
        times++;
      if (times > 1 && length * times > best.length * best.times) best = { length, times };
    }
    if (best.times > 1) out.push({ repeat: best.times, steps: steps.slice(i, i + best.length) });
    else out.push(steps[i]);
    i += best.length * best.times;
  }
  // A list holds at most 100 items: a longer one (many distinct steps) goes into repeat-once blocks.
  if (out.length <= TEMPLATE_LIMITS.maxStepsPerList) return out;
  const chunks: EditorStep[] = [];
  for (let k = 0; k < out.length; k += TEMPLATE_LIMITS.maxStepsPerList)
    chunks.push({ repeat: 1, steps: out.slice(k, k + TEMPLATE_LIMITS.maxStepsPerList) });
  return chunks;
}

/** The template as the editor shows it: version 1, its members, steps with repeats folded. */
export function editorText(template: NormalizedTemplate): string {
  const doc: Record<string, unknown> = { version: 1 };
  if (template.name) doc.name = template.name;
  if (template.boat_class) doc.boat_class = template.boat_class;
  if (template.notes) doc.notes = template.notes;
  doc.steps = compactSteps(template.steps);
  return JSON.stringify(doc, null, 2);
}

export { templateTotals };
