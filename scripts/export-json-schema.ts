import { writeFileSync } from "node:fs";
import { exportJsonSchema } from "../server/exports/builders/json";

// Regenerates docs/export-json.schema.json from the code (a test fails when the two differ).
writeFileSync("docs/export-json.schema.json", `${JSON.stringify(exportJsonSchema(), null, 2)}\n`);
