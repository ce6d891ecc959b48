import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getApplicationForOperator } from "@/server/applications/application-review";
import { SCOPE_INFO, isScope } from "@/server/auth/oauth/scopes";
import { loadOr404, parseId } from "@/app/_lib/params";
import { ApplicationDetail } from "@/app/_components/application-detail";
import { IntrospectionToggle, OriginReviewButtons, ReviewApplicationForm } from "../review-forms";

export const metadata: Metadata = { title: "Review application · Operator" };

export default async function OperatorApplicationPage({ params }: { params: Promise<{ id: string }> }) {
  await requireOperator();
  const id = parseId((await params).id);
  if (id === null) notFound();
  const app = await loadOr404(() => getApplicationForOperator(getDb(), id));
  return (
    <ApplicationDetail
      app={app}
      backHref="/operator/applications"
      facts={[
        {
          term: "Owner",
          value: (
            <>
              {app.ownerName} ({app.ownerEmail})
            </>
          ),
        },
        { term: "Client ID", value: <code>{app.clientId}</code> },
        { term: "Surface", value: app.surface },
        { term: "Type", value: app.clientType },
        { term: "Registered", value: app.createdAt.toISOString().slice(0, 10) },
      ]}
      beforeOrigins={
        <>
          <h2>Redirect URIs</h2>
          <ul className="card">
            {app.redirectUris.map((uri) => (
              <li key={uri}>
                <code>{uri}</code>
              </li>
            ))}
          </ul>
          <h2>Scopes</h2>
          <ul className="card">
            {app.scopes.map((scope) => (
              <li key={scope}>
                <code>{scope}</code> — {isScope(scope) ? SCOPE_INFO[scope].description : "unknown"}
              </li>
            ))}
          </ul>
          {app.surface === "partner" ? (
            <>
              <h2>Review</h2>
              <div className="card">
                {app.reviewNote ? <p>Last note: {app.reviewNote}</p> : null}
                <ReviewApplicationForm id={app.id} />
              </div>
            </>
          ) : null}
        </>
      }
      originDecision={(o) => <OriginReviewButtons applicationId={app.id} originId={o.id} origin={o.origin} />}
    >
      <h2>Token introspection</h2>
      <div className="card">
        {app.clientType === "confidential" ? (
          <>
            <p>
              Introspection is {app.introspectionAllowed ? <strong>allowed</strong> : "not allowed"} for this client (its own tokens only).
            </p>
            <IntrospectionToggle id={app.id} allowed={app.introspectionAllowed} />
          </>
        ) : (
          <p className="muted">Public clients cannot authenticate, so they can never introspect tokens.</p>
        )}
      </div>
    </ApplicationDetail>
  );
}
