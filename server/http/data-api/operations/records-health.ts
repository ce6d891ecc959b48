import { z } from "zod";
import { SURFACES } from "../../../auth/oauth/scopes";
import { listShareableLactate, listShareableWeights } from "../../../health/shareable-health";
import { listRecordHistoryPage, recordPosition, type RecordPosition } from "../../../records/performance-records";
import { getReadableSession } from "../../../sessions/read-session";
import { getReadableTraining } from "../../../trainings/training-reads";
import { sessionsAboutSubject } from "../../../sessions/session-boundary";
import { defineOperation } from "../define-operation";
import { DataApiError } from "../errors";
import { keysetPage } from "../pagination";
import { idQuery } from "../params";
import {
  serializeLactate,
  serializeRecordEntry,
  serializeWeight,
  ZLactate,
  ZRecordEntry,
  ZWeight,
} from "../../../records/records-health-wire";

/** Records and health (data-api.md "Equipment, catalogues, records, health", "Health data rules"). */
const HEALTH_SURFACES = ["data", "partner"] as const;

export const listRecords = defineOperation({
  method: "get",
  path: "/records",
  operationId: "list_records",
  summary: "The subject's performance-record history: each session that improved the best time of its boat class and distance",
  description:
    "Distance efforts among the sessions GET /sessions lists for the same token: the subject's own and those they paddled in; on the session surface only those the calling application created, so the history and `current` are computed over those alone. Ordered by boat class, distance, then time; `current` marks the standing record.",
  tag: "Records and health",
  scopes: ["records:read"],
  surfaces: SURFACES,
  paged: true,
  response: ZRecordEntry,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) =>
        listRecordHistoryPage(
          ctx.db,
          sessionsAboutSubject({ subjectId: ctx.subjectId, surface: ctx.surface, applicationId: ctx.applicationId }),
          { after: after ? ([String(after[0]), Number(after[1]), String(after[2]), Number(after[3])] as RecordPosition) : null, take },
        ),
      recordPosition,
    );
    return { data: page.rows.map(serializeRecordEntry), meta: page.meta };
  },
});

export const listWeights = defineOperation({
  method: "get",
  path: "/health/weights",
  operationId: "list_health_weights",
  summary: "The subject's weight history, newest first: entered by hand or measured by the service's own units",
  description: "Weights imported from external providers are never returned.",
  tag: "Records and health",
  scopes: ["health:read"],
  surfaces: HEALTH_SURFACES,
  paged: true,
  response: ZWeight,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listShareableWeights(ctx.db, ctx.subjectId, { after: after ? [String(after[0]), Number(after[1])] : null, take }),
      (w) => [w.measuredOn, w.id],
    );
    return { data: page.rows.map(serializeWeight), meta: page.meta };
  },
});

export const listLactate = defineOperation({
  method: "get",
  path: "/health/lactate",
  operationId: "list_health_lactate",
  summary: "The subject's own lactate readings, in time order: of one session or training, or all of them",
  description:
    "Give at most one of session_id or training_id; without either, every reading of the subject. The session must be one the subject can read (else 404). Only the subject's own readings are returned, never another crew member's or an external provider's. The training must be one the subject can read (owned; on the session surface created by the application), else 404.",
  tag: "Records and health",
  scopes: ["health:read"],
  surfaces: HEALTH_SURFACES,
  query: z.object({
    session_id: idQuery("session_id").optional().describe("only the readings of this session, one the subject can read"),
    training_id: idQuery("training_id").optional().describe("only the readings of this training of the subject"),
  }),
  paged: true,
  response: ZLactate,
  handler: async (ctx, { query }) => {
    if (query.session_id !== undefined && query.training_id !== undefined)
      throw new DataApiError("invalid_request", "training_id: give session_id or training_id, not both");
    const audience = { subjectId: ctx.subjectId, surface: ctx.surface, applicationId: ctx.applicationId };
    const { session_id: sessionId, training_id: trainingId } = query;
    if (sessionId !== undefined) await getReadableSession(ctx.db, audience, sessionId);
    if (trainingId !== undefined) await getReadableTraining(ctx.db, audience, trainingId);
    const page = await keysetPage(
      ctx,
      query,
      (after, take) =>
        listShareableLactate(
          ctx.db,
          ctx.subjectId,
          { sessionId, trainingId },
          { after: after ? [String(after[0]), Number(after[1])] : null, take },
        ),
      (l) => [l.measuredAtText, l.id],
    );
    return { data: page.rows.map(serializeLactate), meta: page.meta };
  },
});

export const recordsHealthOperations = [listRecords, listWeights, listLactate];
