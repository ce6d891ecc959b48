import { describe, expect, it } from "vitest";
import { hasForbiddenCharacters } from "../../contract/values";
import { dateParam, dateTimeParam, idParam, intParam, textParam } from "./params";

/** The one parameter layer of both APIs (issue 14, defect 1): hostile values are refused with the parameter's name. */
const refuses = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  value: string,
  name: string,
) => {
  const parsed = schema.safeParse(value);
  expect(parsed.success, `${name}=${JSON.stringify(value)}`).toBe(false);
  expect(parsed.error!.issues[0].message).toMatch(new RegExp(`^${name}`));
};

describe("parameters", () => {
  it("ids stay within int4", () => {
    expect(idParam("vessel_id").parse("2147483647")).toBe(2_147_483_647);
    for (const value of [
      "2147483648",
      "4294967296",
      "9999999999",
      "9007199254740993",
      "99999999999999999999",
      "0",
      "-1",
      "1.5",
      "1e3",
      " 1",
      "0x10",
      "",
    ])
      refuses(idParam("vessel_id"), value, "vessel_id");
    expect(intParam("dist", 0, 2_147_483_647).parse("0")).toBe(0);
  });

  it("text refuses NUL and unpaired surrogates, keeps paired ones", () => {
    expect(textParam("competition").parse("Regatta 😀 é")).toBe("Regatta 😀 é");
    for (const value of ["\u0000", "a\u0000b", "\ud800", "x\udc00", "😀\ud83d"]) refuses(textParam("competition"), value, "competition");
    refuses(textParam("competition"), "x".repeat(65), "competition");
    expect(hasForbiddenCharacters("\ud83d\ude00")).toBe(false);
  });

  it("dates and date-times are calendar dates and clock times", () => {
    expect(dateParam("start_date").parse("2024-02-29")).toBe("2024-02-29");
    for (const value of ["2021-02-29", "2020-02-30", "2025-04-31", "2025-13-01", "2025-1-1"])
      refuses(dateParam("start_date"), value, "start_date");
    for (const value of ["2025-10-13T11:30", "2025-10-13T11:30:05", "2025-10-13T11:30:05.123Z", "2024-02-29T23:59:59+14:00"])
      expect(dateTimeParam("start_datetime").parse(value)).toBe(value);
    for (const value of [
      "2020-02-30T10:00",
      "2021-02-29T10:00:00Z",
      "2025-10-13T24:00",
      "2025-10-13T11:60",
      "2025-10-13 11:30",
      "2025-10-13T11:30:00+15:00",
    ])
      refuses(dateTimeParam("start_datetime"), value, "start_datetime");
  });
});
