import { serializeError } from "inngest";
import type { InngestExecution } from "inngest/internals";
import { StepMode, StepOpCode, type OutgoingOp } from "inngest/types";
import type { Db } from "../db/client";
import type { SerializedJobError, StoredJobEvent } from "../db/schema";
import { sleepEndsAt } from "./durations";
import { maxAttemptsOf, type JobFunction } from "./job-functions";

/**
 * One execution of an Inngest function, driven the way an Inngest server
 * drives it over HTTP: hand the SDK the run's memoized steps, let it replay
 * them and run at most one new step, and read back what it did. The SDK's
 * execution engine does the replaying; this file only translates between
 * our rows and its ops (docs/jobs.md, "How a run executes").
 *
 * The adapter to the SDK's non-public surface, and the only file that
 * touches it (`inngest/internals`, `inngest/types`, the protected
 * `createExecution` and `client` of a function object; eslint.config.mjs
 * refuses those imports elsewhere). `createExecution` is what the SDK's own
 * serve handler and @inngest/test's InngestTestEngine call; the contract
 * test server/jobs/sdk-contract.test.ts runs every app function through
 * this runner and through @inngest/test and compares their steps, so an
 * SDK upgrade that changes it fails a test (docs/architecture.md "The
 * embedded runner and the Inngest SDK").
 */

/** A memoized step as the SDK expects it back: its data, or its final error. */
export type MemoizedStep = { hashedId: string } & ({ data: unknown } | { error: SerializedJobError });

export interface ExecutionInput {
  fn: JobFunction;
  runId: string;
  event: StoredJobEvent;
  /** Attempt of the step (or function body) about to run, 0 = first try. */
  attempt: number;
  /** Memoized steps in completion order. */
  steps: readonly MemoizedStep[];
  /** Database handed to the function as `ctx.db`. */
  db: Db;
  /** Hashed id of the one step to run, when the SDK planned several in parallel. */
  stepToRun?: string;
}

/** A step that finished: completed with output, or failed for good after its retries. */
export interface FinishedStep {
  hashedId: string;
  stepId: string;
  kind: "run" | "sleep";
  outcome: "completed" | "failed";
  output: unknown;
  error: SerializedJobError | null;
}

export interface PlannedSleep {
  hashedId: string;
  stepId: string;
  endsAt: Date;
}

export type ExecutionOutcome =
  /** A step ran to its end (or to its final failure): memoize it, execute again. */
  | { type: "step-finished"; step: FinishedStep }
  /** A step threw and has retries left. `retryAfter` comes from a RetryAfterError. */
  | { type: "step-retry"; stepId: string; error: SerializedJobError; retryAfter?: string }
  /** New steps were found: sleeps to wait out and/or parallel steps to run one by one. */
  | { type: "steps-planned"; sleeps: PlannedSleep[]; parallel: string[] }
  | { type: "function-completed"; output: unknown }
  /** The function body threw; `retriable` false means no attempt is left or the error says so. */
  | { type: "function-failed"; error: SerializedJobError; retriable: boolean; retryAfter?: string }
  /** The function used something the embedded runner cannot do (waitForEvent, invoke …). */
  | { type: "unsupported"; error: SerializedJobError };

export async function executeFunction(input: ExecutionInput): Promise<ExecutionOutcome> {
  const { fn, runId, event, attempt, db } = input;
  const stepState: Record<string, InngestExecution.MemoizedOp> = {};
  for (const step of input.steps) {
    stepState[step.hashedId] = "data" in step ? { id: step.hashedId, data: step.data } : { id: step.hashedId, error: step.error };
  }
  const execution = fn["createExecution"]({
    partialOptions: {
      client: fn["client"],
      runId,
      data: { event, events: [event], runId, attempt, maxAttempts: maxAttemptsOf(fn) },
      stepState,
      stepCompletionOrder: input.steps.map((step) => step.hashedId),
      // Async is the mode an Inngest server uses: at most one new step per
      // execution, reported back instead of checkpointed to an Inngest API.
      stepMode: StepMode.Async,
      requestedRunStep: input.stepToRun,
      reqArgs: [],
      headers: {},
      transformCtx: (ctx) => ({ ...ctx, db }),
    },
  });
  const result = await execution.start();
  return toOutcome(result);
}

function toOutcome(result: InngestExecution.ExecutionResult): ExecutionOutcome {
  switch (result.type) {
    case "function-resolved":
      return { type: "function-completed", output: result.data ?? null };
    case "function-rejected":
      return {
        type: "function-failed",
        error: asJobError(result.error),
        retriable: result.retriable !== false,
        retryAfter: typeof result.retriable === "string" ? result.retriable : undefined,
      };
    case "step-ran":
      return stepRanOutcome(result.step, result.retriable);
    case "steps-found":
      return stepsFoundOutcome(result.steps);
    case "step-not-found":
      return {
        type: "unsupported",
        error: asJobError(
          new Error(
            `Step "${result.step.displayName ?? result.step.id}" is no longer in the function: it changed while this run was in progress.`,
          ),
        ),
      };
    case "change-mode":
      return { type: "unsupported", error: asJobError(new Error(`The SDK asked to change to step mode "${result.to}".`)) };
  }
}

function stepIdOf(op: OutgoingOp): string {
  return op.userland?.id ?? op.displayName ?? op.id;
}

function stepRanOutcome(op: OutgoingOp, retriable: boolean | string | undefined): ExecutionOutcome {
  const stepId = stepIdOf(op);
  switch (op.op) {
    case StepOpCode.StepRun:
      // Inngest stores `undefined` as null; the SDK treats undefined data as "no data".
      return {
        type: "step-finished",
        step: { hashedId: op.id, stepId, kind: "run", outcome: "completed", output: op.data ?? null, error: null },
      };
    case StepOpCode.StepFailed:
      return {
        type: "step-finished",
        step: { hashedId: op.id, stepId, kind: "run", outcome: "failed", output: null, error: asJobError(op.error) },
      };
    case StepOpCode.StepError:
      return { type: "step-retry", stepId, error: asJobError(op.error), retryAfter: typeof retriable === "string" ? retriable : undefined };
    default:
      return unsupportedOp(op);
  }
}

function stepsFoundOutcome(ops: readonly OutgoingOp[]): ExecutionOutcome {
  const sleeps: PlannedSleep[] = [];
  const parallel: string[] = [];
  for (const op of ops) {
    if (op.op === StepOpCode.Sleep) sleeps.push({ hashedId: op.id, stepId: stepIdOf(op), endsAt: sleepEndsAt(op.name ?? "0s") });
    else if (op.op === StepOpCode.StepPlanned) parallel.push(op.id);
    else return unsupportedOp(op);
  }
  return { type: "steps-planned", sleeps, parallel };
}

const toolOfOpCode: Partial<Record<StepOpCode, string>> = {
  [StepOpCode.WaitForEvent]: "step.waitForEvent",
  [StepOpCode.WaitForSignal]: "step.waitForSignal",
  [StepOpCode.InvokeFunction]: "step.invoke",
  [StepOpCode.AiGateway]: "step.ai",
  [StepOpCode.Gateway]: "step.fetch",
  [StepOpCode.DeferAdd]: "defer",
  [StepOpCode.DeferAbort]: "defer",
};

function unsupportedOp(op: OutgoingOp): ExecutionOutcome {
  const tool = toolOfOpCode[op.op] ?? `the "${op.op}" step operation`;
  return {
    type: "unsupported",
    error: asJobError(new Error(`Step "${stepIdOf(op)}" uses ${tool}, which the embedded job runner does not support (docs/jobs.md).`)),
  };
}

/** The SDK hands errors over serialized; anything else is serialized here so it can be stored as JSON. */
export function asJobError(error: unknown): SerializedJobError {
  if (error && typeof error === "object" && "message" in error && "name" in error && !(error instanceof Error)) {
    return error as SerializedJobError;
  }
  return { ...serializeError(error) } as unknown as SerializedJobError;
}
