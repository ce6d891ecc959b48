import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.join(import.meta.dirname, "../../..");
const cli = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "server/svc/cli.ts", ...args], { cwd: root, encoding: "utf8" });

it("simulate, inspect and process keep their JSON contract", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-cli-"));
  const file = path.join(dir, "k1.svc");
  const truthFile = path.join(dir, "truth.json");
  const simulated = cli(["simulate", "--vessel", "K1", "--distance", "500", "--seed", "7", "--out", file, "--truth", truthFile]);
  expect(simulated.status, simulated.stderr).toBe(0);
  const truth = JSON.parse(fs.readFileSync(truthFile, "utf8"));
  expect(truth.catches.length).toBeGreaterThan(100);

  const inspected = cli(["inspect", file]);
  expect(inspected.status).toBe(0);
  const info = JSON.parse(inspected.stdout);
  expect(info.header).toMatchObject({ format_version: 1, imu_hz: 100, key_id: 0 });
  expect(info.totals.imu).toBeGreaterThan(10_000);
  expect(info).toHaveProperty("imu_lost_samples");

  const processed = cli(["process", file, "--vessel", "K1", "--distance", "500", "--splits", "5"]);
  expect(processed.status, processed.stderr).toBe(0);
  const result = JSON.parse(processed.stdout);
  expect(Object.keys(result)).toEqual(["effort", "strokes", "splits", "summary", "data_quality"]);
  expect(Object.keys(result.effort)).toEqual(["start_s", "end_s", "dist", "duration_ms"]);
  expect(result.splits).toHaveLength(5);
  expect(result.splits[4].time_s * 1000).toBeCloseTo(result.effort.duration_ms, -1);
  for (const member of [
    "catch_s",
    "side",
    "distance",
    "filtered_speed",
    "rate",
    "left_stroke_distance",
    "right_stroke_distance",
    "max_accel_x",
    "min_accel_x",
    "max_pitch",
    "max_roll",
  ]) {
    expect(result.strokes[0]).toHaveProperty(member);
  }
  fs.rmSync(dir, { recursive: true });
});

it("exits 2 with one stderr line for an invalid file or bad arguments", () => {
  const bad = cli(["inspect", path.join(root, "test/fixtures/svc/bad/tampered.svc")]);
  expect(bad.status).toBe(2);
  expect(bad.stdout).toBe("");
  expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  expect(bad.stderr).toMatch(/^not a valid device session: /);
  const usage = cli(["process", "x.svc", "--vessel", "K9", "--distance", "500"]);
  expect(usage.status).toBe(2);
  expect(usage.stderr).toMatch(/--vessel must be one of/);
  expect(() => execFileSync(process.execPath, ["--import", "tsx", "server/svc/cli.ts", "nope"], { cwd: root, stdio: "pipe" })).toThrow();
});

describe("trainings", { timeout: 60_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-cli-training-"));
  const at = (name: string) => path.join(dir, name);
  afterAll(() => fs.rmSync(dir, { recursive: true }));

  it.each([
    ["6x500m/120s", "K2", 7, []],
    ["10x60s/60s", "C1", 5, []],
    ["6x300m/60s", "K4", 3, ["--rests", "drifting", "--tiring"]],
  ] as const)("simulate --training %s %s and process --training agree with the truth", (spec, vessel, seed, extra) => {
    const simulated = cli([
      "simulate",
      "--training",
      spec,
      "--vessel",
      vessel,
      "--seed",
      String(seed),
      ...extra,
      "--out",
      at("t.svc"),
      "--truth",
      at("t.json"),
    ]);
    expect(simulated.status, simulated.stderr).toBe(0);
    const truth = JSON.parse(fs.readFileSync(at("t.json"), "utf8"));
    const truthWork = truth.sets.filter((s: { kind: string }) => s.kind === "work");
    expect(truthWork).toHaveLength(Number(spec.split("x")[0]));

    const processed = cli(["process", at("t.svc"), "--vessel", vessel, "--training"]);
    expect(processed.status, processed.stderr).toBe(0);
    const result = JSON.parse(processed.stdout);
    expect(Object.keys(result)).toEqual(["effort", "strokes", "splits", "summary", "data_quality", "sets"]);
    const sets: { kind: string; start_s: number; end_s: number; distance_m: number; stroke_count: number }[] = result.sets;
    for (const set of sets) expect(Object.keys(set)).toEqual(["kind", "start_s", "end_s", "distance_m", "stroke_count"]);
    expect(sets.map((s) => s.kind)).toEqual(truth.sets.map((s: { kind: string }) => s.kind));
    sets.forEach((set, k) => {
      if (k > 0) expect(set.start_s).toBeGreaterThanOrEqual(sets[k - 1].end_s);
      expect(set.end_s).toBeGreaterThan(set.start_s);
    });
    const work = sets.filter((s) => s.kind === "work");
    work.forEach((set, k) => {
      expect(Math.abs(set.start_s - truthWork[k].start_s)).toBeLessThan(0.15);
      expect(Math.abs(set.end_s - truthWork[k].end_s)).toBeLessThan(1);
      expect(Math.abs(set.stroke_count - truthWork[k].stroke_count)).toBeLessThanOrEqual(1);
    });
    // Strokes cover the whole recording, on the same clock as the sets.
    expect(result.strokes[0].catch_s).toBeLessThan(work[0].start_s);
    expect(result.strokes.at(-1).catch_s).toBeGreaterThan(work.at(-1)!.end_s);
  });

  it("drives simulation and processing with the smallest version-1 template, as other tools write it", () => {
    fs.writeFileSync(
      at("T.json"),
      '{"version": 1, "steps": [{"kind": "work", "distance_m": 500}, {"kind": "rest", "duration_s": 120}, {"kind": "work", "distance_m": 500}]}',
    );
    expect(
      cli([
        "simulate",
        "--template",
        at("T.json"),
        "--vessel",
        "K1",
        "--seed",
        "3",
        "--noise",
        "noisy",
        "--out",
        at("s.svc"),
        "--truth",
        at("s.json"),
      ]).status,
    ).toBe(0);
    const truth = JSON.parse(fs.readFileSync(at("s.json"), "utf8"));
    const processed = cli(["process", at("s.svc"), "--vessel", "K1", "--training", "--template", at("T.json")]);
    expect(processed.status, processed.stderr).toBe(0);
    const result = JSON.parse(processed.stdout);
    expect(result.sets.map((s: { kind: string }) => s.kind)).toEqual(["work", "rest", "work"]);
    expect(result.sets.filter((s: { kind: string }) => s.kind === "work").map((s: { distance_m: number }) => s.distance_m)).toEqual([
      500, 500,
    ]);
    expect(Math.abs(result.sets[2].end_s - truth.sets[2].end_s)).toBeLessThan(0.5);
    expect(result.template_match).toEqual({ unmatched_steps: [], extra_sets: [] });
  });

  it("rejects a bad template and bad training arguments with exit 2 and one line", () => {
    fs.writeFileSync(at("bad.json"), '{"version": 2, "steps": [{"kind": "work"}]}');
    const bad = cli(["process", at("t.svc"), "--vessel", "K2", "--training", "--template", at("bad.json")]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/\$\.version: unsupported version 2.*\$\.steps\[0\]: give distance_m or duration_s/);
    expect(cli(["process", at("t.svc"), "--vessel", "K2", "--training", "--distance", "500"]).stderr).toMatch(
      /--training takes no --distance/,
    );
    expect(cli(["process", at("t.svc"), "--vessel", "K2", "--training", "--sensitivity", "11"]).stderr).toMatch(/--sensitivity must be/);
    expect(cli(["simulate", "--training", "6x500", "--vessel", "K2", "--out", at("x.svc")]).stderr).toMatch(/--training must look like/);
    expect(cli(["simulate", "--training", "6x500m/60s", "--rests", "swimming", "--vessel", "K2", "--out", at("x.svc")]).stderr).toMatch(
      /--rests must be drifting, paddling or mixed/,
    );
    expect(cli(["simulate", "--distance", "500", "--tiring", "--vessel", "K2", "--out", at("x.svc")]).stderr).toMatch(
      /--rests and --tiring need --training/,
    );
  });
});

describe("simulate --start (issue 30 §5: the guide's upload is dated today)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-cli-start-"));
  afterAll(() => fs.rmSync(dir, { recursive: true }));
  // In process (each spawned CLI costs seconds of start-up): the same runSimulate the command line calls.
  const simulate = async (args: string[]) => (await import("./simulate")).runSimulate(args);
  const startOf = async (file: string) => {
    const [{ decodeSvc }, { loadKeyring }] = await Promise.all([import("../container"), import("../keyring")]);
    return decodeSvc(fs.readFileSync(file), loadKeyring({})).header.startUnixMs;
  };

  it("the guide's simulate command, as printed, makes a file recorded ten minutes ago", async () => {
    const { gettingStartedCommands } = await import("../../../app/_lib/getting-started");
    const command = gettingStartedCommands({ appUrl: "http://localhost:3000", ids: { trackId: 1, athleteId: 1 } }).simulate;
    expect(command).toMatch(/^npm run --silent svc -- simulate /);
    const args = command.replace(/^npm run --silent svc -- simulate /, "").split(" ");
    const file = path.join(dir, "guide.svc");
    args[args.indexOf("--out") + 1] = file;
    const before = Date.now();
    const made = await simulate(args);
    const start = await startOf(file);
    expect(start).toBeGreaterThanOrEqual(Math.floor((before - 10 * 60_000) / 60_000) * 60_000);
    expect(start).toBeLessThanOrEqual(Date.now() - 9 * 60_000);
    expect(made).toMatchObject({ start: new Date(start).toISOString() });
  });

  it("an explicit date-time dates the file; without --start the seed's fixed date stays; a bad value is a usage error", async () => {
    const at = path.join(dir, "at.svc");
    await simulate(["--vessel", "K1", "--distance", "200", "--seed", "3", "--start", "2026-12-04T08:00:00+02:00", "--out", at]);
    expect(await startOf(at)).toBe(Date.UTC(2026, 11, 4, 6, 0, 0));
    const fixed = path.join(dir, "fixed.svc");
    await simulate(["--vessel", "K1", "--distance", "200", "--seed", "3", "--out", fixed]);
    expect(await startOf(fixed)).toBe(Date.UTC(2026, 4, 10, 10, 0, 0));
    await expect(
      simulate(["--vessel", "K1", "--distance", "200", "--start", "yesterday", "--out", path.join(dir, "x.svc")]),
    ).rejects.toThrow(/^--start must be now or a date-time/);
  });
});
