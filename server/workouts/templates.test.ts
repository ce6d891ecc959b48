import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { workoutTemplates } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { AppError } from "../errors";
import { createUser } from "../users/users";
import { inspectTemplate, inspectTemplateText, TEMPLATE_LIMITS, type WorkoutStep } from "./template";
import {
  compactSteps,
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  editorText,
  getOwnTemplate,
  importTemplate,
  listOwnTemplates,
  updateTemplate,
} from "./templates";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = (label: string) =>
  createUser(handle.db, { name: `${label} Person`, email: `${label}-${randomUUID()}@test.example`, password: "long enough password" });
const SMALLEST =
  '{"version": 1, "steps": [{"kind": "work", "distance_m": 500}, {"kind": "rest", "duration_s": 120}, {"kind": "work", "distance_m": 500}]}';
const SIX_BY_500 = JSON.stringify({
  version: 1,
  name: "6x500",
  boat_class: "K2",
  steps: [
    {
      repeat: 6,
      steps: [
        { kind: "work", distance_m: 500, targets: { rate_spm: 90 } },
        { kind: "rest", duration_s: 120 },
      ],
    },
  ],
});

async function problemsOf(action: Promise<unknown>): Promise<string[]> {
  const error = await action.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("invalid");
  return (error as AppError).fieldErrors!.text;
}

describe("stored workout templates", () => {
  it("creates, reads, lists in creation order, updates, duplicates and deletes for the owner", async () => {
    const coach = await newUser("coach");
    const first = await createTemplate(handle.db, coach.id, { name: " Race pace ", text: SIX_BY_500 });
    expect(first.name).toBe("Race pace");
    // The stored document is the normalized one: repeats expanded, the name the one given.
    expect(first.template.steps).toHaveLength(12);
    expect(first.template.name).toBe("Race pace");
    const second = await createTemplate(handle.db, coach.id, { name: "Short", text: SMALLEST });
    expect((await listOwnTemplates(handle.db, coach.id)).map((t) => t.id)).toEqual([first.id, second.id]);
    expect((await listOwnTemplates(handle.db, coach.id, { afterId: first.id, take: 10 })).map((t) => t.id)).toEqual([second.id]);
    expect((await listOwnTemplates(handle.db, coach.id, { afterId: null, take: 1 })).map((t) => t.id)).toEqual([first.id]);

    const updated = await updateTemplate(handle.db, coach.id, second.id, {
      name: "Short, slower",
      text: SMALLEST.replace('"duration_s": 120', '"duration_s": 180'),
    });
    expect(updated.template.steps[1]).toEqual({ kind: "rest", duration_s: 180 });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(second.updatedAt.getTime());

    const copy = await duplicateTemplate(handle.db, coach.id, first.id);
    expect(copy.id).not.toBe(first.id);
    expect(copy.name).toBe("Copy of Race pace");
    expect(copy.template.steps).toEqual(first.template.steps);

    await deleteTemplate(handle.db, coach.id, copy.id);
    await expect(getOwnTemplate(handle.db, coach.id, copy.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteTemplate(handle.db, coach.id, copy.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("treats another person's template as absent for every operation", async () => {
    const owner = await newUser("owner");
    const other = await newUser("other");
    const mine = await createTemplate(handle.db, owner.id, { name: "Mine", text: SMALLEST });
    await expect(getOwnTemplate(handle.db, other.id, mine.id)).rejects.toMatchObject({
      code: "not_found",
      message: "Workout template not found",
    });
    await expect(updateTemplate(handle.db, other.id, mine.id, { name: "Taken", text: SMALLEST })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(duplicateTemplate(handle.db, other.id, mine.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteTemplate(handle.db, other.id, mine.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await listOwnTemplates(handle.db, other.id)).toEqual([]);
    expect((await getOwnTemplate(handle.db, owner.id, mine.id)).name).toBe("Mine");
  });

  it("refuses a template with problems, listing each with its path, and writes nothing", async () => {
    const coach = await newUser("strict");
    const problems = await problemsOf(
      createTemplate(handle.db, coach.id, { name: "Bad", text: '{"version": 2, "steps": [{"kind": "work", "distance_m": -5}]}' }),
    );
    expect(problems).toEqual([
      "$.version: unsupported version 2: only version 1 is defined",
      "$.steps[0].distance_m: must be from 1 to 50000",
    ]);
    const kept = await createTemplate(handle.db, coach.id, { name: "Good", text: SMALLEST });
    await problemsOf(updateTemplate(handle.db, coach.id, kept.id, { name: "Good", text: "[1, 2" }));
    expect((await getOwnTemplate(handle.db, coach.id, kept.id)).template.steps).toHaveLength(3);
    await expect(createTemplate(handle.db, coach.id, { name: "   ", text: SMALLEST })).rejects.toThrow();
    await expect(createTemplate(handle.db, coach.id, { name: "a\u0000b", text: SMALLEST })).rejects.toThrow();
    expect(await listOwnTemplates(handle.db, coach.id)).toHaveLength(1);
  });

  it("imports a shared workout under its own name, a given one, or 'Imported workout'", async () => {
    const coach = await newUser("importer");
    expect((await importTemplate(handle.db, coach.id, SIX_BY_500)).name).toBe("6x500");
    expect((await importTemplate(handle.db, coach.id, SIX_BY_500, "Tuesday")).name).toBe("Tuesday");
    const unnamed = await importTemplate(handle.db, coach.id, SMALLEST);
    expect(unnamed.name).toBe("Imported workout");
    const long = await importTemplate(
      handle.db,
      coach.id,
      JSON.stringify({ version: 1, name: "x".repeat(200), steps: [{ kind: "work", duration_s: 60 }] }),
    );
    expect(long.name).toHaveLength(128);
    const [row] = await handle.db.select().from(workoutTemplates).where(eq(workoutTemplates.id, unnamed.id));
    expect(row.ownerUserId).toBe(coach.id);
    expect(row.template).toEqual({
      version: 1,
      name: "Imported workout",
      boat_class: null,
      notes: null,
      steps: [
        { kind: "work", distance_m: 500 },
        { kind: "rest", duration_s: 120 },
        { kind: "work", distance_m: 500 },
      ],
    });
  });

  it("import survives hostile input: every case a list of problems with paths, nothing saved", async () => {
    const coach = await newUser("hostile");
    const hostile: [string, string][] = [
      ["huge array", JSON.stringify({ version: 1, steps: Array.from({ length: 5000 }, () => ({ kind: "work", distance_m: 1 })) })],
      ["deep nesting", `{"version":1,"steps":${"[".repeat(5000)}${"]".repeat(5000)}}`],
      [
        "deep repeats",
        JSON.stringify({
          version: 1,
          steps: [
            {
              repeat: 2,
              steps: [{ repeat: 2, steps: [{ repeat: 2, steps: [{ repeat: 2, steps: [{ kind: "work", distance_m: 100 }] }] }] }],
            },
          ],
        }),
      ],
      ["unknown version", '{"version": "2.0", "steps": [{"kind": "work", "distance_m": 500}]}'],
      ["wrong types", '{"version": 1, "name": 7, "steps": {"kind": "work"}}'],
      ["1 MB body", JSON.stringify({ version: 1, notes: "n".repeat(1_000_000), steps: [{ kind: "work", distance_m: 1 }] })],
      ["NUL in text", JSON.stringify({ version: 1, name: "a\u0000b", steps: [{ kind: "work", distance_m: 1 }] })],
      ["huge numbers", '{"version": 1, "steps": [{"kind": "work", "distance_m": 1e400}]}'],
      ["not JSON", "\u0000\u0001{"],
      ["a bare array", "[]"],
      [
        "repeat explosion",
        JSON.stringify({ version: 1, steps: [{ repeat: 50, steps: [{ repeat: 50, steps: [{ kind: "work", distance_m: 1 }] }] }] }),
      ],
    ];
    for (const [label, text] of hostile) {
      const problems = await problemsOf(importTemplate(handle.db, coach.id, text));
      expect(problems.length, label).toBeGreaterThan(0);
      for (const line of problems) expect(line, label).toMatch(/^\$[^:]*: ./);
    }
    expect(await listOwnTemplates(handle.db, coach.id)).toEqual([]);
  });
});

describe("compactSteps", () => {
  const work = (distance_m: number): WorkoutStep => ({ kind: "work", distance_m });
  const rest = (duration_s: number): WorkoutStep => ({ kind: "rest", duration_s });

  it("folds runs back into repeat blocks that expand to the same steps", () => {
    const steps = [rest(600), ...Array.from({ length: 6 }, () => [work(500), rest(120)]).flat(), work(250), rest(600)];
    expect(compactSteps(steps)).toEqual([rest(600), { repeat: 6, steps: [work(500), rest(120)] }, work(250), rest(600)]);
    const reinspected = inspectTemplate({ version: 1, steps: compactSteps(steps) });
    expect(reinspected.template!.steps).toEqual(steps);
  });

  it("keeps every stored template editable: the editor text inspects back to the same template", () => {
    const cases = [
      { version: 1, steps: [{ repeat: 5, steps: Array.from({ length: 100 }, () => work(100)) }] },
      {
        version: 1,
        steps: Array.from({ length: 5 }, (_, a) => ({ repeat: 1, steps: Array.from({ length: 100 }, (_, b) => work(a * 100 + b + 1)) })),
      },
      {
        version: 1,
        name: "P",
        boat_class: "C1",
        notes: "n",
        steps: [{ repeat: 3, steps: [{ repeat: 2, steps: [work(250), rest(60)] }, rest(300)] }],
      },
    ];
    for (const source of cases) {
      const first = inspectTemplate(source);
      expect(first.valid).toBe(true);
      const again = inspectTemplateText(editorText(first.template!));
      expect(again.valid, JSON.stringify(again.problems).slice(0, 300)).toBe(true);
      expect(again.template).toEqual(first.template);
    }
    expect(TEMPLATE_LIMITS.maxExpandedSteps).toBe(500);
  });
});
