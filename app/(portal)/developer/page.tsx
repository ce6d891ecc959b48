import type { Metadata } from "next";
import Link from "next/link";
import { getEnv } from "@/server/config/env";

export const metadata: Metadata = { title: "Developer portal" };

export default function DeveloperPage() {
  const base = `${getEnv().appUrl}/api/v1`;
  return (
    <>
      <h1>Developer portal</h1>
      <div className="card">
        <p>Two public REST APIs share one base address:</p>
        <p>
          <code>{base}</code>
        </p>
        <ul>
          <li>
            The <strong>results API</strong> (upload and read results, reference tables) authenticates with a key pair issued
            here.
          </li>
          <li>
            The <strong>Data API</strong> (read-only, privacy-projected) authenticates with OAuth 2.1 access tokens of an
            application registered here.
          </li>
        </ul>
        <p>
          <Link href="/developer/keys">Key pairs</Link> for the results API · <Link href="/developer/applications">OAuth applications</Link> for the Data API
        </p>
        <p>
          References: <Link href="/developer/docs/results-api">results API reference</Link> (OpenAPI 3.1:{" "}
          <a href="/api/docs/results-api.json">/api/docs/results-api.json</a>) · <Link href="/developer/docs/data-api">Data API reference</Link>, with a “Try it”
          panel (OpenAPI 3.1: <a href="/api/docs/data-api.json">/api/docs/data-api.json</a>)
        </p>
      </div>
    </>
  );
}
