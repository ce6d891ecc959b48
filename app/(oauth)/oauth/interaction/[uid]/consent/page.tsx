import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/server/db/client";
import { consentView } from "@/server/auth/oauth/interactions";
import { SCOPE_INFO, type Surface } from "@/server/auth/oauth/scopes";

export const metadata: Metadata = { title: "Allow access", referrer: "no-referrer" };

type Props = { params: Promise<{ uid: string }> };

const SURFACE_LABEL: Record<Surface, string> = {
  data: "Data application: reads your data through the Data API",
  partner: "Partner application: reviewed by Paddle Results operators",
  session: "Session application: sees only the sessions and trainings it created",
};

/**
 * The consent screen (data-api.md "Health data rules": health:read is asked
 * separately and starts unticked). The form carries only the decision and the
 * ticked box; the server rebuilds the scopes from the authorization request.
 */
export default async function ConsentPage({ params }: Props) {
  const { uid } = await params;
  const view = await consentView(getDb(), new Headers(await headers()), uid);
  if (!view) redirect("/oauth/expired");
  const { application, user, scopes, separateScopes } = view;
  return (
    <>
      <h1>Allow {application.name} to access your account?</h1>
      <div className="card">
        <dl className="facts">
          <div>
            <dt>Application</dt>
            <dd>{application.name}</dd>
          </div>
          <div>
            <dt>Registered by</dt>
            <dd>{application.ownerName}</dd>
          </div>
          <div>
            <dt>Type</dt>
            <dd>{SURFACE_LABEL[application.surface]}</dd>
          </div>
          <div>
            <dt>Signed in as</dt>
            <dd>
              {user.name} ({user.email})
            </dd>
          </div>
        </dl>
        <form className="stack" method="post" action={`/oauth/interaction/${encodeURIComponent(uid)}`}>
          <input type="hidden" name="action" value="consent" />
          {scopes.length ? (
            <section aria-labelledby="scopes-heading">
              <h2 id="scopes-heading">{application.name} will be able to:</h2>
              <ul>
                {scopes.map((scope) => (
                  <li key={scope}>
                    {SCOPE_INFO[scope].description} <code className="muted">{scope}</code>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {separateScopes.map((scope) => (
            <fieldset key={scope}>
              <legend>Health data (asked separately)</legend>
              <label className="checkbox">
                <input type="checkbox" name="separate_scope" value={scope} />
                <span>
                  Also allow it to: {SCOPE_INFO[scope].description} <code className="muted">{scope}</code>
                </span>
              </label>
              <p className="hint">Left unticked, {application.name} is told that you declined. You can change your mind later.</p>
            </fieldset>
          ))}
          <p className="muted">It gets read-only access. You can withdraw it at any time under Account, Connected apps.</p>
          <div className="row">
            <button type="submit" name="decision" value="allow">
              Allow
            </button>
            <button type="submit" name="decision" value="deny" className="secondary">
              Deny
            </button>
          </div>
        </form>
      </div>
    </>
  );
}
