import { Decoder, Stream } from "@garmin/fitsdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExportModel } from "../export-source";
import { fitRecordPoints } from "./fit";
import { buildExport } from "./index";
import { defaultOptions, openExportWorld, type ExportWorld } from "../../../test/support/export-world";

let world: ExportWorld;
beforeAll(async () => {
  world = await openExportWorld();
});
afterAll(async () => {
  await world.handle.close();
});

const source = () => ({ kind: "session" as const, sessionId: world.sessionId });
const decode = (bytes: Uint8Array) => {
  const decoder = new Decoder(Stream.fromByteArray(Array.from(bytes)));
  expect(decoder.isFIT()).toBe(true);
  expect(decoder.checkIntegrity()).toBe(true);
  return decoder.read({ convertDateTimesToDates: true, mergeHeartRates: false });
};

describe("fit export", () => {
  it("decodes with Garmin's own SDK without errors: activity, kayaking, one lap per split, records at the bounded rate", async () => {
    const file = await buildExport(world.db, source(), { userId: world.anna.id }, { ...defaultOptions, format: "fit", splits: 5 });
    expect(file.contentType).toBe("application/vnd.ant.fit");
    expect(file.filename).toMatch(/\.fit$/);
    const { messages, errors } = decode(file.bytes);
    expect(errors).toEqual([]);
    const model = await loadExportModel(
      world.db,
      source(),
      { userId: world.anna.id },
      { athlete: 1, splits: 5, mode: "full", healthAllowed: true },
    );

    expect(messages.fileIdMesgs).toEqual([expect.objectContaining({ type: "activity", manufacturer: "development" })]);
    const [session] = messages.sessionMesgs!;
    expect(session).toMatchObject({ sport: "kayaking", subSport: "generic", totalCycles: model.summary.stroke_count, numLaps: 5 });
    // Total distance and elapsed time are the session's.
    expect(session.totalDistance).toBeCloseTo(model.summary.distance_m, 1);
    expect(session.totalElapsedTime).toBeCloseTo(model.summary.duration_ms / 1000, 2);
    expect((session.startTime as unknown as Date).getTime()).toBe(Math.floor(model.startUnixMs / 1000) * 1000);
    expect(session.avgHeartRate).toBe(model.summary.heart_rate!.avg_bpm);

    const laps = messages.lapMesgs!;
    expect(laps).toHaveLength(5);
    const lapDistance = laps.reduce((sum, lap) => sum + (lap.totalDistance as number), 0);
    expect(lapDistance).toBeCloseTo(model.summary.distance_m, 0);
    laps.forEach((lap, i) => expect(lap.totalElapsedTime).toBeCloseTo(model.splits[i].split_s, 2));

    const records = messages.recordMesgs!;
    expect(records).toHaveLength(fitRecordPoints(model.startUnixMs, model.series.t_s).length);
    expect(records.length).toBeGreaterThan(model.summary.duration_ms / 1000 - 2);
    expect(records.at(-1)!.distance).toBeCloseTo(model.summary.distance_m, 1);
    const withAll = records.filter(
      (r) => r.positionLat !== undefined && r.heartRate !== undefined && r.cadence !== undefined && r.speed !== undefined,
    );
    expect(withAll.length).toBeGreaterThan(records.length * 0.9);
    // Cadence is the stroke rate; positions are near the stored route's start.
    const cadences = records.flatMap((r) => (r.cadence === undefined ? [] : [r.cadence as number]));
    expect(Math.max(...cadences)).toBeLessThanOrEqual(Math.round(model.summary.max_rate_spm!));
    expect(Math.max(...cadences)).toBeGreaterThanOrEqual(Math.round(model.summary.avg_rate_spm!));
    const [lat, lon] = model.series.route![0];
    expect(((records[0].positionLat as number) * 180) / 2 ** 31).toBeCloseTo(lat, 4);
    expect(((records[0].positionLong as number) * 180) / 2 ** 31).toBeCloseTo(lon, 4);
    // Timestamps come from the session, never from the clock: strictly increasing whole seconds.
    const times = records.map((r) => (r.timestamp as unknown as Date).getTime());
    expect(times.every((t, i) => i === 0 || t > times[i - 1])).toBe(true);
  });

  it("leaves heart rate out without health permission, and is the same bytes for the same request", async () => {
    const options = { ...defaultOptions, format: "fit" as const, healthAllowed: false };
    const [a, b] = [
      await buildExport(world.db, source(), { userId: world.anna.id }, options),
      await buildExport(world.db, source(), { userId: world.anna.id }, options),
    ];
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const { messages, errors } = decode(a.bytes);
    expect(errors).toEqual([]);
    expect(messages.recordMesgs!.some((r) => r.heartRate !== undefined)).toBe(false);
    expect(messages.sessionMesgs![0].avgHeartRate).toBeUndefined();
  });
});
