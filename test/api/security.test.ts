import { beforeAll, describe, expect, it } from "vitest";
import { apiHarness } from "./harness";
import { DATA_WORLD_SEED } from "./data-world";
import { buildMatrixWorld, MATRIX_OPERATIONS, type MatrixWorld } from "./security-fixtures";
import { checkDataApiOperation, checkResultsApiOperation, securedOperations, type SecuredOperation } from "./security-matrix";

// The matrix makes a few hundred requests with one token; the rate limits have their own tests (the kernel's).
process.env.DATA_API_RATE_LIMIT = "100000";
process.env.RESULTS_API_RATE_LIMIT = "100000";
process.env.RESULTS_API_PDF_RATE_LIMIT = "100000";

/**
 * The shared security matrix over every secured operation of both APIs
 * (security-matrix.ts): one test per operation, its declaration read from
 * the served documents.
 */
const api = apiHarness({ seed: DATA_WORLD_SEED });
let world: MatrixWorld;
let operations: Map<string, SecuredOperation>;
beforeAll(async () => {
  world = await buildMatrixWorld(api);
  operations = new Map([...securedOperations(api, "data"), ...securedOperations(api, "results")].map((op) => [op.key, op]));
});

describe("the security matrix", () => {
  it("covers every secured operation of both documents, and nothing else", () => {
    expect([...MATRIX_OPERATIONS].sort()).toEqual([...operations.keys()].sort());
    expect(Object.keys(world.fixtures).sort()).toEqual([...MATRIX_OPERATIONS].sort());
  });

  for (const key of MATRIX_OPERATIONS) {
    it(key, async () => {
      const op = operations.get(key);
      expect(op, `${key} is not in the served documents`).toBeTruthy();
      await (op!.api === "data" ? checkDataApiOperation : checkResultsApiOperation)(api, world, op!, world.fixtures[key]);
    });
  }
});
