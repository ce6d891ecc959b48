import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getEnv } from "@/server/config/env";
import { listApplications } from "@/server/applications/applications";
import { issuerUrl } from "@/server/auth/oauth/config";
import { ReviewBadge } from "@/app/_components/review-badge";

export const metadata: Metadata = { title: "OAuth applications" };

export default async function ApplicationsPage() {
  const user = await requireUser("/developer/applications");
  const applications = await listApplications(getDb(), user.id);
  const appUrl = getEnv().appUrl;
  return (
    <>
      <div className="page-header">
        <h1>OAuth applications</h1>
        <Link className="button" href="/developer/applications/new">
          Register an application
        </Link>
      </div>
      <div className="card">
        <p>
          An application reads the Data API with OAuth 2.1 (authorization code with PKCE S256). Only you can authorize your applications.
          Issuer: <code>{issuerUrl(appUrl)}</code>; discovery: <code>{`${appUrl}/.well-known/openid-configuration/api`}</code>. Operations,
          scopes and surfaces: <Link href="/developer/docs/data-api">Data API reference</Link>.
        </p>
      </div>
      {applications.length === 0 ? (
        <p className="muted">No applications yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Client ID</th>
              <th scope="col">Surface</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {applications.map((app) => (
              <tr key={app.id}>
                <td>
                  <Link href={`/developer/applications/${app.id}`}>{app.name}</Link>
                </td>
                <td>
                  <code>{app.clientId}</code>
                </td>
                <td>{app.surface}</td>
                <td>{app.clientType}</td>
                <td>
                  <ReviewBadge status={app.reviewStatus} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
