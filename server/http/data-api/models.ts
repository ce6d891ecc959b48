import * as analytics from "../../analytics/analytics-wire";
import * as compare from "../../sessions/compare-wire";
import * as deviceJobs from "../../devices/device-jobs-wire";
import * as devices from "../../devices/devices-wire";
import * as equipment from "../../equipment/equipment-wire";
import * as exportJobs from "../../exports/exports-wire";
import * as identity from "../../auth/oauth/identity-wire";
import * as recordsHealth from "../../records/records-health-wire";
import * as roster from "../../teams/roster-wire";
import * as sessions from "../../sessions/sessions-wire";
import * as trainings from "../../trainings/trainings-wire";
import * as workouts from "../../workouts/workouts-wire";
import type { NamedModels } from "../openapi/build";
import { ZAnonymousSharedErrorBody, ZErrorBody, ZPageMeta } from "./define-operation";
import { ZEmbed, ZEmbedBody, ZLease, ZLeaseBody } from "./operations/embeds";
import { ZExportRequest } from "./operations/exports";
import { ZCompareBody as ZSessionCompareBody } from "./operations/sessions";
import { ZCompareBody as ZSetCompareBody } from "./operations/trainings";

/**
 * The Data API document's named models (docs/openapi.md "Named models"): the
 * type names a client author expects, each a contract schema that is written
 * once under components/schemas and referred to wherever an operation uses it.
 */
export const DATA_API_MODELS: NamedModels = {
  Error: ZErrorBody,
  AnonymousError: ZAnonymousSharedErrorBody,
  PageMeta: ZPageMeta,
  Me: identity.ZMe,
  Authorization: identity.ZAuthorization,
  AthleteProfile: identity.ZAthleteProfile,
  SessionListItem: sessions.ZSessionListItem,
  Session: sessions.ZSessionDetail,
  CrewSeat: sessions.ZCrewSeat,
  SessionSummary: sessions.ZSessionSummary,
  Stroke: sessions.ZStroke,
  Split: sessions.ZSplit,
  SessionSplits: sessions.ZSplits,
  SessionSeries: sessions.ZSeries,
  SessionCompareRequest: ZSessionCompareBody,
  SessionComparison: compare.ZSessionComparison,
  ComparedSplit: compare.ZComparedSplit,
  SessionAnalysis: analytics.ZSessionAnalysis,
  ComparableSessions: analytics.ZComparableSessions,
  Progression: analytics.ZProgression,
  PersonalBest: analytics.ZPersonalBest,
  Benchmark: analytics.ZBenchmark,
  TrainingListItem: trainings.ZTrainingListItem,
  Training: trainings.ZTrainingDetail,
  // Not `Set`: that is a built-in type in TypeScript, Java and Python.
  TrainingSet: trainings.ZTrainingSet,
  TrainingTemplate: trainings.ZTrainingTemplate,
  TrainingSummary: trainings.ZTrainingSummary,
  SetSummary: trainings.ZSetSummary,
  TrainingTimeline: trainings.ZTrainingTimeline,
  TimelineInterval: trainings.ZTimelineInterval,
  SetSplits: trainings.ZSetSplits,
  SetSeries: trainings.ZSetSeries,
  SetCompareRequest: ZSetCompareBody,
  SetComparison: trainings.ZSetComparison,
  ExportRequest: ZExportRequest,
  Export: exportJobs.ZExportJob,
  DeviceJob: deviceJobs.ZDeviceJob,
  Device: devices.ZDevice,
  DeviceFile: devices.ZDeviceFile,
  Vessel: equipment.ZEquipmentVessel,
  Paddle: equipment.ZEquipmentPaddle,
  EquipmentItem: equipment.ZEquipmentItem,
  BoatClass: equipment.ZBoatClass,
  PaddleKind: equipment.ZPaddleKind,
  SessionOptions: equipment.ZSessionOptions,
  Catalogue: equipment.ZCatalogue,
  PerformanceRecord: recordsHealth.ZRecordEntry,
  Weight: recordsHealth.ZWeight,
  Lactate: recordsHealth.ZLactate,
  Track: roster.ZTrack,
  Athlete: roster.ZRosterAthlete,
  TeamListItem: roster.ZTeamListItem,
  Team: roster.ZTeam,
  WorkoutTemplateListItem: workouts.ZWorkoutTemplateListItem,
  WorkoutTemplate: workouts.ZWorkoutTemplate,
  NormalizedWorkout: workouts.ZNormalizedTemplate,
  WorkoutTotals: workouts.ZTemplateTotals,
  WorkoutInspection: workouts.ZTemplateInspection,
  EmbedRequest: ZEmbedBody,
  Embed: ZEmbed,
  LeaseRequest: ZLeaseBody,
  Lease: ZLease,
};
