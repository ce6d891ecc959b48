import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { runFuzz } from "./fuzz";
import { loadKeyring } from "./keyring";

it("mutated reference files either decode or raise InvalidSvcError, never anything else", () => {
  const reference = fs.readFileSync(path.join(import.meta.dirname, "../../test/fixtures/svc/reference-v1.svc"));
  const result = runFuzz(reference, loadKeyring({}), 1500, 20261122);
  expect(result.crashes).toEqual([]);
  // The mutator must reach the chunk walker, not only the tag check.
  expect(result.rejected).toBeGreaterThan(1000);
});
