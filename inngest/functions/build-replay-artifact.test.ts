import { InngestTestEngine, mockCtx } from "@inngest/test";
import type { Context } from "inngest";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../server/db/client";
import { notFound } from "../../server/errors";
import { inngest } from "../client";
import { buildReplayArtifactFunction } from "./build-replay-artifact";

// The domain function is someone else's and not wired yet; these tests pin
// the function's wiring (trigger, schema, step, ctx.db), not its output.
vi.mock("../../server/replay/build-replay-artifact", () => ({ buildReplayArtifact: vi.fn() }));

/** A stand-in database handed in as ctx.db, so the middleware never opens the app's. */
const fakeDb = { fake: "db" } as unknown as Db;
const withFakeDb = (ctx: Context.Any) => ({ ...mockCtx(ctx), db: fakeDb });

describe("build-replay-artifact (via @inngest/test)", () => {
  const t = new InngestTestEngine({ function: buildReplayArtifactFunction, transformCtx: withFakeDb });

  it("is triggered by result/stored and retried three times", () => {
    expect(buildReplayArtifactFunction.id()).toBe("build-replay-artifact");
    expect(buildReplayArtifactFunction.opts.retries).toBe(3);
    expect(buildReplayArtifactFunction.opts.triggers?.map((trigger) => ("name" in trigger ? trigger.name : trigger))).toEqual([
      "result/stored",
    ]);
  });

  it.each([
    ["a string id", { resultId: "42" }],
    ["a missing id", {}],
    ["a fractional id", { resultId: 1.5 }],
    ["a non-positive id", { resultId: 0 }],
  ])("rejects event data with %s before any step runs", async (_case, data) => {
    const { error, ctx } = await t.execute({ events: [{ name: "result/stored", data }] });
    expect(error).toMatchObject({ name: "EventValidationError" });
    expect(ctx.step.run).not.toHaveBeenCalled();
  });

  it("builds the artifact in one step with ctx.db and returns its reference", async () => {
    const { buildReplayArtifact } = await import("../../server/replay/build-replay-artifact");
    const ref = { blobKey: "results/42/replay-v1.bin", schemaVersion: 1 as const, byteSize: 10, sha256: "ab" };
    vi.mocked(buildReplayArtifact).mockResolvedValueOnce(ref);
    const { result, ctx } = await t.execute({ events: [{ name: "result/stored", data: { resultId: 42 } }] });
    expect(result).toEqual(ref);
    expect(ctx.step.run).toHaveBeenCalledWith("build-and-store-artifact", expect.any(Function));
    expect(buildReplayArtifact).toHaveBeenCalledWith(fakeDb, 42);
  });

  it("fails without retrying when the result is gone", async () => {
    const { buildReplayArtifact } = await import("../../server/replay/build-replay-artifact");
    vi.mocked(buildReplayArtifact).mockRejectedValueOnce(notFound("Result"));
    const { error } = await new InngestTestEngine({ function: buildReplayArtifactFunction, transformCtx: withFakeDb }).execute({
      events: [{ name: "result/stored", data: { resultId: 7 } }],
    });
    expect(error).toMatchObject({ name: "NonRetriableError", message: "Result not found" });
  });
});

describe("a two-step function (via @inngest/test)", () => {
  const seen: string[] = [];
  const twoStep = inngest.createFunction(
    { id: "test-inngest-two-step", triggers: [{ event: "test/two-step" }] },
    async ({ event, step }) => {
      const doubled = await step.run("double", () => {
        seen.push("double");
        return (event.data.n as number) * 2;
      });
      const plusOne = await step.run("plus-one", () => {
        seen.push("plus-one");
        return doubled + 1;
      });
      return { doubled, plusOne };
    },
  );
  // A fresh engine per test: an engine carries its run's state from one execution to the next.
  const engine = () => new InngestTestEngine({ function: twoStep, transformCtx: withFakeDb });

  it("runs both steps in order and returns their results", async () => {
    const { result, ctx } = await engine().execute({ events: [{ name: "test/two-step", data: { n: 20 } }] });
    expect(result).toEqual({ doubled: 40, plusOne: 41 });
    expect(seen).toEqual(["double", "plus-one"]);
    expect(vi.mocked(ctx.step.run).mock.calls.map(([id]) => id)).toEqual(["double", "plus-one"]);
  });

  it("runs one step in isolation, with the other mocked", async () => {
    seen.length = 0;
    const { result } = await engine().executeStep("plus-one", {
      events: [{ name: "test/two-step", data: { n: 1 } }],
      steps: [{ id: "double", handler: () => 100 }],
    });
    expect(result).toBe(101);
    expect(seen).toEqual(["plus-one"]);
  });
});
