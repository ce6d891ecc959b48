import { createApplication } from "@/server/applications/applications";
import { apiResource } from "@/server/auth/oauth/config";
import { SCOPE_INFO, type Scope } from "@/server/auth/oauth/scopes";
import { issueAccessToken } from "@/server/auth/oauth/test-fixtures";
import { getDb } from "@/server/db/client";

/** Every scope a data-surface application may hold, as the e2e specs' token had them. */
export const DATA_SURFACE_SCOPES = (Object.keys(SCOPE_INFO) as Scope[]).filter((scope) => SCOPE_INFO[scope].surfaces.includes("data"));

/** A Data API access token of `userId` for a fresh data-surface application holding every scope of that surface. */
export async function dataApiToken(userId: number): Promise<string> {
  const db = getDb();
  const { application } = await createApplication(db, userId, {
    name: "Kernel test app",
    surface: "data",
    clientType: "confidential",
    redirectUris: ["https://app.example/callback"],
    embedOrigins: [],
    scopes: DATA_SURFACE_SCOPES,
  });
  const { token } = await issueAccessToken(db, { userId, applicationId: application.id, clientId: application.clientId, scopes: DATA_SURFACE_SCOPES, audience: apiResource() });
  return token;
}
