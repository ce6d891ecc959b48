import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete, ZAthleteInput } from "@/server/athletes/athletes";
import type { DbHandle } from "@/server/db/client";
import { createTrack } from "@/server/tracks/tracks";
import { createUser } from "@/server/users/users";
import { openTestDb } from "@/test/support/test-db";
import { gettingStartedCommands } from "./getting-started";
import { ownUploadIds } from "./own-upload-ids";

/** Issue 30 §5: the portal's upload samples name the account's own track and athlete, and a new account's none. */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("ownUploadIds", () => {
  it("a new account has none, so the guide prints no upload; once it has a track and an athlete, theirs", async () => {
    const user = await createUser(handle.db, { name: "New", email: `new-${randomUUID()}@test.example`, password: "correct horse battery" });
    expect(await ownUploadIds(handle.db, user.id)).toBeNull();
    expect(gettingStartedCommands({ appUrl: "http://localhost:3000", ids: await ownUploadIds(handle.db, user.id) }).upload).toBeNull();
    const track = await createTrack(handle.db, user.id, { name: "Home basin" });
    expect(await ownUploadIds(handle.db, user.id)).toBeNull();
    const athlete = await createAthlete(handle.db, user.id, ZAthleteInput.parse({ name: "Ada", surname: "New" }));
    expect(await ownUploadIds(handle.db, user.id)).toEqual({ trackId: track.id, athleteId: athlete.id });
  });
});
