import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../applications/applications";
import type { SessionAudience } from "../sessions/session-boundary";
import { openExportWorld, type ExportWorld } from "../../test/support/export-world";
import { requestSessionExport } from "./request-session-export";

/**
 * Who may ask for which seat (docs/exports.md "Export jobs"). Issue 21: on the
 * partner surface, a session the person owns with another paddler in the
 * seat was a 404; the partner now gets the file the owner could export on the
 * web, built privacy-safe.
 */
let world: ExportWorld;
let partnerAppId: number;
beforeAll(async () => {
  world = await openExportWorld();
  const { application } = await createApplication(world.db, world.anna.id, {
    name: "Partner",
    surface: "partner",
    clientType: "confidential",
    redirectUris: ["https://partner.example/callback"],
    embedOrigins: [],
    scopes: ["openid", "sessions:read", "exports:create"],
  });
  partnerAppId = application.id;
});
afterAll(async () => {
  await world.handle.close();
});

const ask = (audience: SessionAudience, athlete: number, mode: "full" | "privacy-safe") =>
  requestSessionExport(world.db, {
    audience,
    applicationId: partnerAppId,
    sessionId: world.sessionId,
    request: { format: "json", athlete, splits: 4, lang: "en" },
    mode,
    healthAllowed: true,
    idempotency: null,
  });

describe("requestSessionExport on the partner surface", () => {
  it("queues another paddler's seat of a session the person owns, privacy-safe", async () => {
    const { job } = await ask({ subjectId: world.anna.id, surface: "partner", applicationId: partnerAppId }, 2, "privacy-safe");
    expect(job).toMatchObject({ athlete: 2, mode: "privacy-safe", subjectUserId: world.anna.id, applicationId: partnerAppId });
  });

  it("still refuses an empty seat and a person without access, with the same 404", async () => {
    await expect(
      ask({ subjectId: world.anna.id, surface: "partner", applicationId: partnerAppId }, 3, "privacy-safe"),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      ask({ subjectId: world.olaf.id, surface: "partner", applicationId: partnerAppId }, 1, "privacy-safe"),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
