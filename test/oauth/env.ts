import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// The app as the e2e server runs it: behind one trusted proxy, so X-Forwarded-For is the client's
// address (the per-address limits need one). Without DATABASE_URL, a PGlite folder of this test file's own.
process.env.TRUST_PROXY ??= "1";
if (!process.env.DATABASE_URL) process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "svc-oauth-"));
