// `npm run fuzz:svc -- --cases N --seed S`: a longer run of the .svc fuzzer (server/svc/fuzz.ts).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { runFuzz } from "../server/svc/fuzz";
import { loadKeyring } from "../server/svc/keyring";

const { values } = parseArgs({
  options: { cases: { type: "string", default: "100000" }, seed: { type: "string", default: String(Date.now() % 1e9) } },
});
const started = performance.now();
const result = runFuzz(fs.readFileSync("test/fixtures/svc/reference-v1.svc"), loadKeyring({}), Number(values.cases), Number(values.seed));
console.log(
  `${values.cases} cases, seed ${values.seed}: ${result.decoded} decoded, ${result.rejected} rejected, ${result.crashes.length} crashes, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
for (const crash of result.crashes.slice(0, 5)) console.log(crash);
process.exit(result.crashes.length ? 1 : 0);
