import { SURFACES } from "../../../auth/oauth/scopes";
import { inspectTemplateText, TEMPLATE_LIMITS } from "../../../workouts/template";
import { getOwnTemplate, listOwnTemplates } from "../../../workouts/templates";
import { readBoundedBody } from "../../../net/bounded-body";
import { isJsonContentType } from "../../kernel/define-api";
import { defineOperation, pathId, ZErrorBody } from "../define-operation";
import { DataApiError } from "../errors";
import { keysetPage } from "../pagination";
import {
  serializeInspection,
  serializeTemplate,
  serializeTemplateListItem,
  ZTemplateInspection,
  ZWorkoutTemplate,
  ZWorkoutTemplateListItem,
} from "../../../workouts/workouts-wire";
import { z } from "zod";

/**
 * Workout templates (data-api.md "Workout templates", docs/workouts.md):
 * the subject's own templates, and the inspection of a shared version-1
 * workout. Read-only: the import checks and normalizes, it never saves (the
 * web app's import does).
 */
export const WORKOUT_TEMPLATE_SCHEMA_PATH = "/api/docs/workout-template.schema.json";

export const listWorkoutTemplates = defineOperation({
  method: "get",
  path: "/workout-templates",
  operationId: "list_workout_templates",
  summary: "The subject's workout templates in creation order, cursor-paged",
  tag: "Workout templates",
  scopes: ["workouts:read"],
  surfaces: SURFACES,
  paged: true,
  response: ZWorkoutTemplateListItem,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listOwnTemplates(ctx.db, ctx.subjectId, { afterId: after ? Number(after[0]) : null, take }),
      (t) => [t.id],
    );
    return { data: page.rows.map(serializeTemplateListItem), meta: page.meta };
  },
});

export const getWorkoutTemplate = defineOperation({
  method: "get",
  path: "/workout-templates/{template_id}",
  operationId: "get_workout_template",
  summary: "One of the subject's workout templates, normalized (repeat blocks expanded), with its totals",
  tag: "Workout templates",
  scopes: ["workouts:read"],
  surfaces: SURFACES,
  pathParams: { template_id: pathId("template_id").describe("workout template identifier") },
  response: ZWorkoutTemplate,
  handler: async (ctx, { params }) => ({ data: serializeTemplate(await getOwnTemplate(ctx.db, ctx.subjectId, params.template_id)) }),
});

const ZImportProblems = ZErrorBody.extend({
  problems: z
    .array(
      z.object({
        path: z.string().describe("JSONPath of the offending value, e.g. $.steps[2].distance_m; $ for the body as a whole"),
        message: z.string(),
      }),
    )
    .optional()
    .describe("the workout's every problem (at most 100, then one entry saying how many more)"),
});

/** The body's problem as a 400 whose `problems` lists it at the root. */
const bodyProblem = (message: string) => new DataApiError("invalid_request", `body: ${message}`, undefined, [{ path: "$", message }]);

export const importWorkoutTemplate = defineOperation({
  method: "post",
  path: "/workout-templates/import",
  operationId: "import_workout_template",
  summary: "Inspects a shared version-1 workout: validity, the normalized template and its totals. Saves nothing",
  description: `The body is the workout itself (JSON Schema: ${WORKOUT_TEMPLATE_SCHEMA_PATH}), at most ${TEMPLATE_LIMITS.maxBytes} bytes and ${TEMPLATE_LIMITS.maxJsonDepth} levels of nesting. A workout with any problem — an unknown version, a wrong type, an out-of-range value, an unknown member, too many steps, too deep repeats — is a 400 invalid_request whose \`problems\` lists every one with its JSON path.`,
  tag: "Workout templates",
  scopes: ["workouts:read"],
  surfaces: SURFACES,
  documentedBody: {
    contentType: "application/json",
    description: `a version-1 workout template; its JSON Schema is served at ${WORKOUT_TEMPLATE_SCHEMA_PATH}`,
    schema: {
      type: "object",
      required: ["version", "steps"],
      properties: {
        version: { const: 1 },
        name: { type: ["string", "null"] },
        boat_class: { type: ["string", "null"] },
        notes: { type: ["string", "null"] },
        steps: { type: "array" },
      },
      description: `full schema: ${WORKOUT_TEMPLATE_SCHEMA_PATH}`,
    },
  },
  response: ZTemplateInspection,
  errors: {
    400: {
      description:
        "invalid_request: the workout has problems (each in `problems` with its JSON path), or the body is not JSON, too large or too deeply nested (one problem at $), or a query parameter was sent",
      schema: ZImportProblems,
    },
  },
  handler: async (ctx) => {
    if (!isJsonContentType(ctx.request)) throw bodyProblem("send the workout as JSON with Content-Type: application/json");
    const bytes = await readBoundedBody(ctx.request, TEMPLATE_LIMITS.maxBytes);
    if (!bytes) throw bodyProblem(`larger than ${TEMPLATE_LIMITS.maxBytes} bytes`);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw bodyProblem("not valid UTF-8");
    }
    const inspection = inspectTemplateText(text);
    if (!inspection.valid) {
      const n = inspection.problems.length;
      throw new DataApiError(
        "invalid_request",
        `The workout has ${n === 1 ? "a problem" : `${n} problems`}: ${inspection.problems[0].path}: ${inspection.problems[0].message}`,
        undefined,
        inspection.problems,
      );
    }
    return { data: serializeInspection(inspection) };
  },
});

export const workoutOperations = [listWorkoutTemplates, getWorkoutTemplate, importWorkoutTemplate];
