import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getApplicationForOperator } from "@/server/applications/application-review";
import { SCOPE_INFO, isScope } from "@/server/auth/oauth/scopes";
import { loadOr404, parseId } from "@/app/_lib/params";
import { ReviewBadge } from "@/app/(portal)/developer/applications/review-badge";
import { IntrospectionToggle, OriginReviewButtons, ReviewApplicationForm } from "../review-forms";

export const metadata: Metadata = { title: "Review application · Operator" };

export default async function OperatorApplicationPage({ params }: { params: Promise<{ id: string }> }) {
  await requireOperator();
  const id = parseId((await params).id);
  if (id === null) notFound();
  const app = await loadOr404(() => getApplicationForOperator(getDb(), id));
  return (
    <>
      <p>
        <Link href="/operator/applications">← Applications</Link>
      </p>
      <div className="page-header">
        <h1>{app.name}</h1>
        <ReviewBadge status={app.reviewStatus} />
      </div>
      <dl className="card facts">
        <div>
          <dt>Owner</dt>
          <dd>
            {app.ownerName} ({app.ownerEmail})
          </dd>
        </div>
        <div>
          <dt>Client ID</dt>
          <dd>
            <code>{app.clientId}</code>
          </dd>
        </div>
        <div>
          <dt>Surface</dt>
          <dd>{app.surface}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{app.clientType}</dd>
        </div>
        <div>
          <dt>Registered</dt>
          <dd>{app.createdAt.toISOString().slice(0, 10)}</dd>
        </div>
      </dl>
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
      <h2>Embed origins</h2>
      {app.origins.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Origin</th>
              <th scope="col">Status</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {app.origins.map((o) => (
              <tr key={o.id}>
                <td>
                  <code>{o.origin}</code>
                </td>
                <td>{o.status}</td>
                <td>
                  <OriginReviewButtons applicationId={app.id} originId={o.id} origin={o.origin} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Token introspection</h2>
      <div className="card">
        {app.clientType === "confidential" ? (
          <>
            <p>Introspection is {app.introspectionAllowed ? <strong>allowed</strong> : "not allowed"} for this client (its own tokens only).</p>
            <IntrospectionToggle id={app.id} allowed={app.introspectionAllowed} />
          </>
        ) : (
          <p className="muted">Public clients cannot authenticate, so they can never introspect tokens.</p>
        )}
      </div>
    </>
  );
}
