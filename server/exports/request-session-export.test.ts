import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../applications/applications";
import { athletes } from "../db/schema";
import { createUser } from "../users/users";
import type { SessionAudience } from "../sessions/session-boundary";
import { openExportWorld, type ExportWorld } from "../../test/support/export-world";
import { listExportableSeats, requestSessionExport } from "./request-session-export";

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

describe("the seats a person may export (the web export form's choices)", () => {
  it("are the seats the request accepts: the owner both, the partner paddler only her own, a stranger none", async () => {
    // Bea gets an account linked to her athlete record: a crew mate who does not manage Anna.
    const bea = await createUser(world.db, {
      name: "Bea Blanco",
      email: `bea-${randomUUID()}@test.example`,
      password: "long enough password",
    });
    await world.db.update(athletes).set({ userId: bea.id }).where(eq(athletes.id, world.beaAthleteId));
    const web = (subjectId: number): SessionAudience => ({ subjectId, surface: "data", applicationId: 0 });
    const webAsk = (subjectId: number, athlete: number) =>
      requestSessionExport(world.db, {
        audience: web(subjectId),
        applicationId: null,
        sessionId: world.sessionId,
        request: { format: "json", athlete, splits: 4, lang: "en" },
        mode: "full",
        healthAllowed: true,
        idempotency: null,
      });

    expect(await listExportableSeats(world.db, web(world.anna.id), world.sessionId)).toEqual([
      { seat: 1, name: "Anna Alvarez", own: true },
      { seat: 2, name: "Bea Blanco", own: false },
    ]);
    expect(await listExportableSeats(world.db, web(bea.id), world.sessionId)).toEqual([{ seat: 2, name: "Bea Blanco", own: true }]);
    await expect(listExportableSeats(world.db, web(world.olaf.id), world.sessionId)).rejects.toMatchObject({ code: "not_found" });

    // What is offered is accepted; what is not offered is the same 404 as before.
    for (const seat of [1, 2]) await expect(webAsk(world.anna.id, seat)).resolves.toMatchObject({ job: { athlete: seat } });
    await expect(webAsk(bea.id, 2)).resolves.toMatchObject({ job: { athlete: 2 } });
    await expect(webAsk(bea.id, 1)).rejects.toMatchObject({ code: "not_found" });
  });
});
