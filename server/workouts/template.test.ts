import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { inspectTemplate, inspectTemplateText, TEMPLATE_LIMITS } from "./template";

const SMALLEST =
  '{"version": 1, "steps": [{"kind": "work", "distance_m": 500}, {"kind": "rest", "duration_s": 120}, {"kind": "work", "distance_m": 500}]}';
const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../docs/workout-template.schema.json"), "utf8"));
const validateSchema = new Ajv2020({ allErrors: true }).compile(schema);

describe("workout template v1", () => {
  it("accepts the smallest template as other tools write it", () => {
    const result = inspectTemplateText(SMALLEST);
    expect(result.valid).toBe(true);
    expect(result.template).toEqual({
      version: 1,
      name: null,
      boat_class: null,
      notes: null,
      steps: [
        { kind: "work", distance_m: 500 },
        { kind: "rest", duration_s: 120 },
        { kind: "work", distance_m: 500 },
      ],
    });
    expect(result.totals).toEqual({
      set_count: 2,
      step_count: 3,
      work_distance_m: 1000,
      work_duration_s: 0,
      rest_distance_m: 0,
      rest_duration_s: 120,
    });
  });

  it("expands nested repeats in order and adds up the totals", () => {
    const result = inspectTemplate({
      version: 1,
      name: " Pyramid ",
      boat_class: "K2",
      steps: [
        { kind: "work", duration_s: 600, targets: { zone: 1 } },
        {
          repeat: 2,
          steps: [
            {
              repeat: 3,
              steps: [
                { kind: "work", distance_m: 250, targets: { rate_spm: 110, pace_s_per_500m: 105 } },
                { kind: "rest", duration_s: 60 },
              ],
            },
            { kind: "rest", distance_m: 400 },
          ],
        },
      ],
    });
    expect(result.valid).toBe(true);
    expect(result.template!.name).toBe("Pyramid");
    expect(result.template!.steps).toHaveLength(1 + 2 * (3 * 2 + 1));
    expect(result.template!.steps[1]).toEqual({ kind: "work", distance_m: 250, targets: { rate_spm: 110, pace_s_per_500m: 105 } });
    expect(result.totals).toEqual({
      set_count: 7,
      step_count: 15,
      work_distance_m: 1500,
      work_duration_s: 600,
      rest_distance_m: 800,
      rest_duration_s: 360,
    });
  });

  it("reports every problem with its path", () => {
    const result = inspectTemplate({
      version: 2,
      name: 7,
      boat_class: "K3",
      extra: true,
      steps: [
        { kind: "sprint", distance_m: 500 },
        { kind: "work" },
        { kind: "rest", distance_m: -1, duration_s: "60" },
        { repeat: 0, steps: [] },
        "work",
        { kind: "work", duration_s: 60, targets: { zone: 2.5, watts: 300 } },
      ],
    });
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => p.path)).toEqual([
      "$.version",
      "$.extra",
      "$.name",
      "$.boat_class",
      "$.steps[0].kind",
      "$.steps[1]",
      "$.steps[2]",
      "$.steps[2].distance_m",
      "$.steps[2].duration_s",
      "$.steps[3].repeat",
      "$.steps[3].steps",
      "$.steps[4]",
      "$.steps[5].targets.watts",
      "$.steps[5].targets.zone",
    ]);
    expect(result.problems.every((p) => p.message.length > 5)).toBe(true);
  });

  it("turns hostile input into problems, never a throw", () => {
    const deep = `${'{"version":1,"steps":'.repeat(1)}${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const cases: unknown[] = [
      null,
      42,
      "x",
      [],
      { version: 1 },
      { version: 1, steps: {} },
      { version: "1", steps: [{ kind: "work", distance_m: 1 }] },
    ];
    for (const value of cases) expect(inspectTemplate(value).valid).toBe(false);
    expect(inspectTemplateText(deep).problems[0].message).toMatch(/nested deeper/);
    expect(inspectTemplateText("x".repeat(1_048_576)).problems[0].message).toMatch(/at most 65536/);
    expect(inspectTemplateText("{").problems[0].message).toMatch(/not valid JSON/);
    const huge = inspectTemplate({ version: 1, steps: Array.from({ length: 1_000_000 }, () => ({ kind: "work", distance_m: 1 })) });
    expect(huge.problems).toEqual([{ path: "$.steps", message: "at most 100 steps in one list (got 1000000)" }]);
    const manyBad = inspectTemplate({
      version: 1,
      steps: Array.from({ length: 100 }, () => ({ kind: 1, distance_m: "x", duration_s: [] })),
    });
    expect(manyBad.problems).toHaveLength(TEMPLATE_LIMITS.maxProblems + 1);
    expect(manyBad.problems.at(-1)!.message).toMatch(/more problems not listed/);
    // Nesting past the repeat depth, and repeats that multiply past the expanded limit.
    let nested: unknown = { kind: "work", distance_m: 100 };
    for (let k = 0; k < 5; k++) nested = { repeat: 2, steps: [nested] };
    expect(inspectTemplate({ version: 1, steps: [nested] }).problems[0].message).toMatch(/nest at most 3 deep/);
    const multiplied = inspectTemplate({
      version: 1,
      steps: [{ repeat: 50, steps: [{ repeat: 50, steps: [{ kind: "work", distance_m: 100 }] }] }],
    });
    expect(multiplied.problems[0].message).toMatch(/more than 500 steps/);
    expect(inspectTemplate({ version: 1, steps: [{ kind: "rest", duration_s: 60 }] }).problems[0].message).toMatch(
      /at least one work step/,
    );
    expect(inspectTemplate({ version: 1, name: "a\u0000b", steps: [{ kind: "work", distance_m: 1 }] }).problems[0].path).toBe("$.name");
  });

  it("agrees with the published JSON schema", () => {
    const samples = [
      JSON.parse(SMALLEST),
      {
        version: 1,
        name: "x",
        boat_class: "C1",
        notes: null,
        steps: [
          {
            repeat: 3,
            steps: [
              { kind: "work", duration_s: 60, targets: { zone: 4 } },
              { kind: "rest", duration_s: 60 },
            ],
          },
        ],
      },
      { version: 2, steps: [{ kind: "work", distance_m: 500 }] },
      { version: 1, steps: [{ kind: "work", distance_m: 500, duration_s: 60 }] },
      { version: 1, steps: [{ kind: "work", distance_m: 0 }] },
      { version: 1, steps: [{ repeat: 2, steps: [{ kind: "work", distance_m: 5, extra: 1 }] }] },
      { version: 1, steps: [] },
    ];
    for (const sample of samples) expect(validateSchema(sample), JSON.stringify(sample)).toBe(inspectTemplate(sample).valid);
  });
});
