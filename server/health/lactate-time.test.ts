import { describe, expect, it } from "vitest";
import { lactateTimeOf } from "./health";

describe("the lactate form's default time for a session (issue 28 §6)", () => {
  it("is the end of the session's effort in UTC, not the time the form was opened", () => {
    // 09:00 at UTC+1 is 08:00 UTC; a 1 min 36 s effort ends at 08:01:36.
    expect(lactateTimeOf({ date: "2026-05-14", timeOfDay: "09:00:00+01:00", durationMs: 96_000 })).toBe("2026-05-14T08:01");
    // A session just before midnight UTC ends the next day.
    expect(lactateTimeOf({ date: "2026-05-14", timeOfDay: "23:59:00+00:00", durationMs: 120_000 })).toBe("2026-05-15T00:01");
  });
});
