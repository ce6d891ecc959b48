import { beforeAll, describe, expect, it } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { fuzzOperation, hostileJsonValues, operationsOf, probeProblem, SEED, type FuzzDoc } from "./fuzz";
import { databaseForCollection, personWithKey, resultsDocument, send, uploadRequest, type KeyPair, type Person } from "./results-client";

/**
 * The parameter fuzz (test/api/fuzz.ts) over the results API's document,
 * one test per operation, and every field of the upload's metadata, one
 * hostile JSON value at a time, on a baseline that would be accepted.
 */
await databaseForCollection();
const document = await resultsDocument();
const operations = operationsOf(document.doc as unknown as FuzzDoc);

let fuzzer: Person;
beforeAll(async () => {
  fuzzer = await personWithKey("fuzzer");
});

/** Fresh key pairs before a bucket runs out, so every probe reaches the parameter layer: 100 a minute per key, 20 of them on the PDF. */
function rotatingKey(perKey: number) {
  let key: KeyPair | undefined;
  let used = 0;
  return async () => {
    if (!key || used++ >= perKey) {
      key = await fuzzer.newKey();
      used = 1;
    }
    return key.authorization;
  };
}

describe(`results API: no 5xx for hostile values at any parameter, every answer documented (seed ${SEED})`, () => {
  it("covers every operation of the document", () => {
    expect(operations.map((op) => `${op.method} ${op.template}`).sort()).toEqual(
      [
        "/categories",
        "/categories/{id}",
        "/health",
        "/paces",
        "/paces/{id}",
        "/vessels",
        "/vessels/{id}",
        "/tracks",
        "/tracks/{id}",
        "/athletes",
        "/athletes/{id}",
        "/results",
        "/results/{id}",
        "/results/{id}/pdf",
      ]
        .map((path) => `get ${path}`)
        .concat("delete /results/{id}")
        .sort(),
    );
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.template}`, op] as const))("%s", async (_, operation) => {
    const failures = await fuzzOperation(document, operation, rotatingKey(operation.template.endsWith("/pdf") ? 19 : 95));
    expect(failures).toEqual([]);
  });
});

describe("results API: hostile values in every field of the upload's metadata", () => {
  const baseline = (trackId: number, athleteId: number): Record<string, unknown> => ({
    distance: 200,
    vessel_id: 1,
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: [athleteId],
    competition: "c",
    description: "d",
    important: false,
    meteo: { wind_speed: 1 },
  });
  const fields = [...Object.keys(baseline(0, 0)), "duration_ms", "athletes[0]", "meteo.wind_speed"];
  const file = { bytes: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 9100 }), filename: "f.svc" };

  it.each(fields)("%s", async (field) => {
    const trackId = await fuzzer.track("Fuzz basin");
    const athleteId = await fuzzer.athlete({ name: "Fuzz", subscriptionActiveUntil: "2099-12-31" });
    // 10 uploads a minute per key.
    const authorization = rotatingKey(9);
    const failures: string[] = [];
    for (const value of hostileJsonValues()) {
      const metadata = structuredClone(baseline(trackId, athleteId));
      if (field === "athletes[0]") metadata.athletes = [value];
      else if (field === "meteo.wind_speed") metadata.meteo = { wind_speed: value };
      else metadata[field] = value;
      const response = await send(
        await uploadRequest(
          { file, metadata: JSON.stringify(metadata) },
          { authorization: await authorization(), "x-forwarded-proto": "https" },
        ),
      );
      const problem = await probeProblem(document, "post", "/results", response);
      if (problem) failures.push(`${field}=${JSON.stringify(value).slice(0, 60)} ${problem}`);
    }
    expect(failures).toEqual([]);
  });
});
