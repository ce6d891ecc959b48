import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devices, results } from "../../db/schema";
import { buildExport, EXPORT_FORMATS } from "./index";
import { readable } from "../../../test/support/pdf-tools";
import { defaultOptions, openExportWorld, type ExportWorld } from "../../../test/support/export-world";

let world: ExportWorld;
let serial: string;
beforeAll(async () => {
  world = await openExportWorld();
  const [row] = await world.db
    .select({ serial: devices.serial })
    .from(results)
    .innerJoin(devices, eq(devices.id, results.deviceId))
    .where(eq(results.id, world.sessionId));
  serial = row.serial;
});
afterAll(async () => {
  await world.handle.close();
});

describe("every format", () => {
  it.each(EXPORT_FORMATS)(
    "%s: web and data-surface API builds are the same bytes; no serial, e-mail or file name; privacy-safe names no one else",
    async (format) => {
      const source = { kind: "session" as const, sessionId: world.sessionId };
      const web = await buildExport(world.db, source, { userId: world.anna.id }, { ...defaultOptions, format });
      const api = await buildExport(
        world.db,
        source,
        { userId: world.anna.id, application: { id: 4242, surface: "data" } },
        { ...defaultOptions, format },
      );
      expect(Buffer.from(api.bytes).equals(Buffer.from(web.bytes))).toBe(true);
      expect(api.filename).toBe(web.filename);

      // Never the device serial, the owner's e-mail or the original file name, in any format.
      const text = await readable(format, web.bytes);
      expect(text.length).toBeGreaterThan(100);
      expect(text).not.toContain(serial);
      expect(text).not.toContain(world.anna.email);
      expect(text).not.toContain("export.svc");

      // Privacy-safe: the other crew member's name is nowhere.
      const safe = await buildExport(world.db, source, { userId: world.anna.id }, { ...defaultOptions, format, mode: "privacy-safe" });
      expect(await readable(format, safe.bytes)).not.toContain("Blanco");
    },
  );
});
