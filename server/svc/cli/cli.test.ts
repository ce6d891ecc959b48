import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.join(import.meta.dirname, "../../..");
const cli = (args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "server/svc/cli.ts", ...args], { cwd: root, encoding: "utf8" });

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
  for (const member of ["catch_s", "side", "distance", "filtered_speed", "rate", "left_stroke_distance", "right_stroke_distance", "max_accel_x", "min_accel_x", "max_pitch", "max_roll"]) {
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
