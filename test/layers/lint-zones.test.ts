import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Each layer zone of eslint.config.mjs (docs/architecture.md "Layers and the rules that keep them") fails on a
 * planted violation: a file that does not exist on disk, linted from a string at the path it would have.
 */
const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function zoneErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

describe("layer zones", () => {
  // The first lint loads the config, the plugins and the TypeScript resolver: once, outside the tests.
  beforeAll(async () => {
    await zoneErrors("server/sessions/planted.ts", 'export { sendEvent } from "../events/send-event";\n');
  });

  it("the domain may not import server/jobs (the runner above it), but may import server/events", async () => {
    const up = await zoneErrors("server/sessions/planted.ts", 'export { drainEmbeddedRuns } from "../jobs/embedded-runner";\n');
    expect(up.join("\n")).toContain("The domain does not import server/jobs");
    expect(await zoneErrors("server/sessions/planted.ts", 'export { sendEvent } from "../events/send-event";\n')).toEqual([]);
  });

  it("server/events stands on the foundations alone", async () => {
    const up = await zoneErrors("server/events/planted.ts", 'export { getCrewSeenBy } from "../sessions/read-session";\n');
    expect(up.join("\n")).toContain("server/events imports only");
  });

  it("nothing under server/ imports inngest/ but the embedded runner", async () => {
    const up = await zoneErrors("server/results/planted.ts", 'export { inngest } from "../../inngest/client";\n');
    expect(up.join("\n")).toContain("Nothing under server/ imports inngest/");
  });

  it("server/contract imports nothing of the domain", async () => {
    const up = await zoneErrors("server/contract/planted.ts", 'export type { SessionRow } from "../sessions/list-sessions";\n');
    expect(up.join("\n")).toContain("server/contract holds the shared value rules");
  });
});
