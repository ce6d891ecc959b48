import { beforeAll, describe, expect, it } from "vitest";
import { fuzzOperation, operationsOf, SEED, type FuzzDoc } from "./fuzz";
import { databaseForCollection, dataApiToken, OpenApiCheck, personWithKey, type Person } from "./results-client";

/** The parameter fuzz (test/api/fuzz.ts) over the Data API's document, one test per operation, with a token holding every data-surface scope. */
await databaseForCollection();
const document = await OpenApiCheck.load("data-api.json");
/** The replay launch is a page, not a route handler: its hostile tokens go to the real server (e2e/results-api.spec.ts). */
const PAGES = ["get /svcsim/launch/{token}"];
const operations = operationsOf(document.doc as unknown as FuzzDoc).filter((op) => !PAGES.includes(`${op.method} ${op.template}`));

let person: Person;
beforeAll(async () => {
  person = await personWithKey("data-fuzzer");
});

describe(`Data API: no 5xx for hostile values at any parameter, every answer documented (seed ${SEED})`, () => {
  it("covers every operation of the document but the POSTs and the launch page", () => {
    const documented = Object.entries(document.doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    expect(operations.map((op) => `${op.method} ${op.template}`)).toEqual(
      documented.filter((op) => !op.startsWith("post ") && !PAGES.includes(op)),
    );
    expect(operations.length).toBeGreaterThan(40);
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.template}`, op] as const))("%s", async (_, operation) => {
    // A token of its own per operation: a DELETE that got through (DELETE /authorization revokes the grant) cannot starve the rest.
    const token = await dataApiToken(person.userId);
    const failures = await fuzzOperation(document, operation, async () => `Bearer ${token}`);
    expect(failures).toEqual([]);
  });
});
