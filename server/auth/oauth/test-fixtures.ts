import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client";
import { createApplication } from "../../applications/applications";
import type { ApplicationInput } from "../../applications/application-rules";
import { createUser } from "../../users/users";

/** Fresh owner and application for integration tests (each test makes its own). */
export async function makeOwnerAndApp(db: Db, input: Partial<ApplicationInput> = {}) {
  const owner = await createUser(db, { name: "Owner", email: `owner-${randomUUID()}@test.example`, password: "correct horse battery" });
  const { application, clientSecret } = await createApplication(db, owner.id, {
    name: "Test app",
    surface: "data",
    clientType: "confidential",
    redirectUris: ["https://app.example/callback"],
    embedOrigins: [],
    scopes: ["openid", "profile", "offline_access", "sessions:read", "health:read"],
    ...input,
  });
  return { owner, application, clientSecret };
}
