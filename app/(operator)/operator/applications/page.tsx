import type { Metadata } from "next";
import Link from "next/link";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listApplicationsForOperator } from "@/server/applications/application-review";
import { ReviewBadge } from "@/app/_components/review-badge";

export const metadata: Metadata = { title: "Applications · Operator" };

/** Every OAuth application; partner applications awaiting review come first. */
export default async function OperatorApplicationsPage() {
  await requireOperator();
  const applications = await listApplicationsForOperator(getDb());
  return (
    <>
      <p>
        <Link href="/operator">← Operator</Link>
      </p>
      <h1>OAuth applications</h1>
      <p className="muted">
        Partner applications and their embed origins need your approval before they can be used. Confidential clients may be allowed to
        introspect tokens.
      </p>
      {applications.length === 0 ? (
        <p className="muted">No applications yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Application</th>
              <th scope="col">Owner</th>
              <th scope="col">Surface</th>
              <th scope="col">Type</th>
              <th scope="col">Review</th>
              <th scope="col" className="num">
                Origins to review
              </th>
              <th scope="col">Introspection</th>
            </tr>
          </thead>
          <tbody>
            {applications.map((app) => (
              <tr key={app.id}>
                <td>
                  <Link href={`/operator/applications/${app.id}`}>{app.name}</Link>
                  <br />
                  <code className="muted">{app.clientId}</code>
                </td>
                <td>
                  {app.ownerName}
                  <br />
                  <span className="muted">{app.ownerEmail}</span>
                </td>
                <td>{app.surface}</td>
                <td>{app.clientType}</td>
                <td>
                  <ReviewBadge status={app.reviewStatus} />
                </td>
                <td className="num">{app.pendingOrigins}</td>
                <td>{app.introspectionAllowed ? "allowed" : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
