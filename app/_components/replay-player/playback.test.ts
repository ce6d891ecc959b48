import { describe, expect, it } from "vitest";
import { decodeTrack, formatClock, paddlePose, poseAt } from "./playback";

const artifact = (frames: number[][], model = "K1") => ({
  schema: 1,
  frame_count: frames.length,
  model_class: model,
  quantization: { position_m: 0.01, orientation_deg: 0.1 },
  frames,
});

describe("replay playback", () => {
  it("decodes quanta to metres and radians and interpolates between 30 Hz frames", () => {
    const track = decodeTrack(
      artifact([
        [0, 0, 0, 0, 0, 0, 0],
        [150, 0, 0, 100, -50, 0, 0.5],
        [300, 0, 0, 0, 0, 0, 0.9],
      ]),
    );
    expect(track.durationS).toBeCloseTo(2 / 30);
    expect(track.finishX).toBeCloseTo(3);
    const mid = poseAt(track, 0.5 / 30);
    expect(mid.x).toBeCloseTo(0.75);
    expect(mid.roll).toBeCloseTo((5 * Math.PI) / 180);
    expect(mid.phase).toBeCloseTo(0.25);
    // Held at the last frame after the end, and at the first before the start.
    expect(poseAt(track, 10).x).toBeCloseTo(3);
    expect(poseAt(track, -1).x).toBe(0);
  });

  it("moves the phase forward through a catch instead of back through the stroke", () => {
    const track = decodeTrack(
      artifact([
        [0, 0, 0, 0, 0, 0, 1.9],
        [10, 0, 0, 0, 0, 0, 0.1],
      ]),
    );
    const p = poseAt(track, 0.5 / 30).phase;
    expect(p === 0 || p > 1.9).toBe(true);
    expect(poseAt(track, 0.75 / 30).phase).toBeCloseTo(0.05);
  });

  it("refuses what is not a schema-1 artifact of a known class", () => {
    expect(() => decodeTrack({ ...artifact([[0, 0, 0, 0, 0, 0, 0]]), schema: 2 })).toThrow();
    expect(() => decodeTrack(artifact([[0, 0, 0, 0, 0, 0, 0]], "X9"))).toThrow();
  });

  it("poses a kayak paddle on the working side and rolls it over in the recovery", () => {
    expect(paddlePose(0, "kayak").tilt).toBeGreaterThan(0);
    expect(paddlePose(1.1, "kayak").tilt).toBeLessThan(0);
    expect(paddlePose(0.3, "kayak").depth).toBeGreaterThan(0.5);
    expect(paddlePose(0.8, "kayak").depth).toBe(0);
    // The blade moves from the bow toward the stern during the drive.
    expect(paddlePose(0.05, "kayak").sweep).toBeGreaterThan(paddlePose(0.5, "kayak").sweep);
    // A canoe paddle stays on its side.
    expect(Math.sign(paddlePose(0.9, "canoe", -1).tilt)).toBe(-1);
    expect(formatClock(83.44)).toBe("1:23.4");
  });
});
