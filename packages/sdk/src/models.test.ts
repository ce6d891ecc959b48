import { describe, expectTypeOf, it } from "vitest";
import type {
  ApiError,
  DataApi,
  DataApiError,
  Export,
  ExportJob,
  ExportRequest,
  ResultsApi,
  ResultsApiError,
  ResultsApiStroke,
  Result,
  Session,
  SessionListItem,
  Split,
  Stroke,
  Training,
  TrainingSet,
} from "./index.js";

/**
 * The named models of both documents are the SDK's own exported types
 * (docs/openapi.md "The SDK"). These are type assertions: `tsc` (the
 * typecheck stage) fails when a name is missing or means something else.
 */
type Answer<Op extends keyof DataApi.operations> = DataApi.operations[Op]["responses"] extends {
  200: { content: { "application/json": infer B } };
}
  ? B
  : never;

describe("the SDK's model types", () => {
  it("are the types the operations answer with", () => {
    expectTypeOf<Answer<"get_session">>().toHaveProperty("data").toEqualTypeOf<Session>();
    expectTypeOf<Answer<"list_sessions">>().toHaveProperty("data").toEqualTypeOf<SessionListItem[]>();
    expectTypeOf<Answer<"get_training">>().toHaveProperty("data").toEqualTypeOf<Training>();
    expectTypeOf<Training["sets"][number]>().toEqualTypeOf<TrainingSet>();
    expectTypeOf<Answer<"get_session_splits">>().toHaveProperty("data").toHaveProperty("splits").toEqualTypeOf<Split[]>();
    expectTypeOf<Answer<"get_export">>().toHaveProperty("data").toEqualTypeOf<Export>();
    expectTypeOf<ExportJob>().toEqualTypeOf<Export>();
    expectTypeOf<Stroke>().toHaveProperty("rate_spm").toEqualTypeOf<number | null>();
    expectTypeOf<ResultsApiStroke>().toHaveProperty("rate").toEqualTypeOf<number | null>();
    expectTypeOf<ResultsApi.operations["get_result"]["responses"][200]["content"]["application/json"]>()
      .toHaveProperty("data")
      .toEqualTypeOf<Result>();
  });

  it("type a request model's defaulted members as optional", () => {
    expectTypeOf<{ format: "pdf" }>().toExtend<ExportRequest>();
  });

  it("name both error bodies, and ApiError is either", () => {
    expectTypeOf<DataApiError>().toHaveProperty("error_description").toEqualTypeOf<string | undefined>();
    expectTypeOf<ResultsApiError>().toHaveProperty("message").toEqualTypeOf<string>();
    expectTypeOf<ApiError>().toEqualTypeOf<DataApiError | ResultsApiError>();
  });
});
