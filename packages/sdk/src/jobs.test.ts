import { describe, expect, it } from "vitest";
import { PaddleApiError } from "./errors";
import { JobTimeoutError, pollJob } from "./jobs";

/**
 * The polling schedule with an injected clock: Retry-After is the floor, the
 * wait grows ×1.5 to 30 s, the whole wait is bounded, and 429/503 are waited
 * out. (The real job against a live server: e2e/sdk.spec.ts.)
 */
function statusResponse(status: string, retryAfter: string | null, httpStatus = 200) {
  const headers = new Headers({ "content-type": "application/json" });
  if (retryAfter !== null) headers.set("retry-after", retryAfter);
  const response = new Response(null, { status: httpStatus, headers });
  return httpStatus < 300
    ? { data: { data: { status } }, response }
    : { error: { error: httpStatus === 429 ? "rate_limited" : "not_found", request_id: "req_test" }, response };
}

function clock() {
  let t = 0;
  const waits: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (waits.push(ms), (t += ms)), waits };
}

describe("pollJob", () => {
  it("waits Retry-After, then backs off ×1.5 up to 30 s, and returns the final job", async () => {
    const c = clock();
    const answers = [...Array(12).fill(["running", "2"]), ["succeeded", null]] as [string, string | null][];
    let i = 0;
    const job = await pollJob(
      async () => statusResponse(...answers[i++]),
      (j) => j.status === "succeeded",
      { now: c.now, sleep: c.sleep },
    );
    expect(job.status).toBe("succeeded");
    expect(c.waits).toEqual([2000, 3000, 4500, 6750, 10125, 15187.5, 22781.25, 30000, 30000, 30000, 30000, 30000]);
  });

  it("a Retry-After longer than the backoff wins", async () => {
    const c = clock();
    const answers: [string, string | null][] = [
      ["queued", "7"],
      ["running", "1"],
      ["succeeded", null],
    ];
    let i = 0;
    await pollJob(
      async () => statusResponse(...answers[i++]),
      (j) => j.status === "succeeded",
      { now: c.now, sleep: c.sleep },
    );
    expect(c.waits).toEqual([7000, 3000]);
  });

  it("gives up after timeoutMs with the last status", async () => {
    const c = clock();
    const error = await pollJob(
      async () => statusResponse("running", "2"),
      () => false,
      { now: c.now, sleep: c.sleep, timeoutMs: 20_000 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobTimeoutError);
    expect((error as JobTimeoutError).lastStatus).toBe("running");
    expect(c.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20_000);
  });

  it("waits out a 429 for its Retry-After; any other error throws a PaddleApiError with the request id", async () => {
    const c = clock();
    const answers = [statusResponse("", "5", 429), statusResponse("succeeded", null)];
    let i = 0;
    await pollJob(
      async () => answers[i++],
      (j) => j.status === "succeeded",
      { now: c.now, sleep: c.sleep },
    );
    expect(c.waits).toEqual([5000]);
    const error = await pollJob(
      async () => statusResponse("", null, 404),
      () => false,
      { now: c.now, sleep: c.sleep },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaddleApiError);
    expect(error).toMatchObject({ status: 404, code: "not_found", requestId: "req_test" });
  });

  it("an abort stops the wait", async () => {
    const controller = new AbortController();
    const polling = pollJob(
      async () => statusResponse("running", "2"),
      () => false,
      { signal: controller.signal },
    );
    controller.abort(new Error("stopped"));
    await expect(polling).rejects.toThrow("stopped");
  });
});
