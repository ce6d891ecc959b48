import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listConnectedApps } from "@/server/auth/oauth/grants";
import { SCOPE_INFO, isScope } from "@/server/auth/oauth/scopes";
import { RevokeAccessButton } from "./revoke-access-button";

export const metadata: Metadata = { title: "Connected apps" };

/** Applications that hold an authorization of this account, what they may read, and a way to withdraw it. */
export default async function ConnectedAppsPage() {
  const user = await requireUser("/connected-apps");
  const apps = await listConnectedApps(getDb(), user.id);
  return (
    <>
      <h1>Connected apps</h1>
      <p className="muted">
        These applications can read your data with your permission. Withdrawing it stops them at once; nothing of yours is deleted.
      </p>
      {apps.length === 0 ? (
        <p className="card empty">No application holds access to your account.</p>
      ) : (
        apps.map((app) => (
          <section key={app.applicationId} className="card" aria-label={app.name}>
            <h2>{app.name}</h2>
            <p className="muted">
              By {app.ownerName} · {app.surface} application · allowed on {app.lastAuthorizedAt.toISOString().slice(0, 10)}
            </p>
            <p>It can:</p>
            <ul>
              {app.scopes.map((scope) => (
                <li key={scope}>
                  {isScope(scope) ? SCOPE_INFO[scope].description : scope} <code className="muted">{scope}</code>
                </li>
              ))}
            </ul>
            {app.declinedScopes.length ? (
              <p className="muted">
                You declined: {app.declinedScopes.map((s) => (isScope(s) ? SCOPE_INFO[s].description.toLowerCase() : s)).join("; ")} (
                {app.declinedScopes.join(", ")})
              </p>
            ) : null}
            <RevokeAccessButton applicationId={app.applicationId} name={app.name} />
          </section>
        ))
      )}
    </>
  );
}
