import type { Metadata } from "next";
import Link from "next/link";
import { OpenApiReference, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { requireUser } from "@/server/auth/current-user";
import { apiResource, issuerUrl } from "@/server/auth/oauth/config";
import { getEnv } from "@/server/config/env";
import { dataApiDocument } from "@/server/http/data-api/openapi";
import { WebhooksReference } from "./webhooks-reference";

export const metadata: Metadata = { title: "Data API reference" };

export default async function DataApiReferencePage() {
  await requireUser("/developer/docs/data-api");
  const { appUrl } = getEnv();
  const issuer = issuerUrl(appUrl);
  const resource = apiResource(appUrl);
  return (
    <>
      <h1>Data API reference</h1>
      <p className="muted">
        Every operation but <code>GET /health</code> takes an OAuth access token of an{" "}
        <Link href="/developer/applications">application you registered</Link>; try any of them from its section&apos;s page, which also
        gets you a test token.
      </p>
      <section className="card token-help" aria-labelledby="obtain-token-title">
        <h2 id="obtain-token-title">Obtaining an access token</h2>
        <ol>
          <li>
            Send the user to <code>{issuer}/oauth/authorize</code> with <code>response_type=code</code>, your <code>client_id</code> and
            registered <code>redirect_uri</code>, the <code>scope</code>s you need, a random <code>state</code>, PKCE:{" "}
            <code>code_challenge</code> (S256 of a random <code>code_verifier</code>) with <code>code_challenge_method=S256</code>, and,
            whenever <code>scope</code> holds <code>openid</code> (ticked by default when you register an application), a random{" "}
            <code>nonce</code>, which comes back in the ID token for you to check. PKCE is required for every client; a request with{" "}
            <code>openid</code> and no <code>nonce</code> is refused with <code>invalid_request</code>.
          </li>
          <li>
            The user signs in and allows access; the browser comes back to your redirect URI with <code>code</code>, your <code>state</code>{" "}
            and <code>iss</code>.
          </li>
          <li>
            Exchange the code within 60 seconds: <code>POST {issuer}/oauth/token</code> with <code>grant_type=authorization_code</code>,{" "}
            <code>code</code>, <code>redirect_uri</code> and <code>code_verifier</code>. Confidential clients authenticate with HTTP Basic (
            <code>client_secret_basic</code>); public clients send <code>client_id</code> in the body.
          </li>
          <li>
            Call the API with <code>Authorization: Bearer ACCESS_TOKEN</code>. Access tokens last 10 minutes; ask for{" "}
            <code>offline_access</code> to get a refresh token. Discovery:{" "}
            <a href={`${issuer}/.well-known/openid-configuration`}>{`${issuer}/.well-known/openid-configuration`}</a>.
          </li>
        </ol>
        <h3>The resource parameter</h3>
        <p>
          No <code>resource</code> parameter is needed: with a Data API scope the token is for the Data API. A request whose scopes include
          a Data API scope (such as <code>sessions:read</code>) gets a Data API token, and one issued with <code>openid</code> also works at
          the userinfo endpoint (<code>{issuer}/oauth/userinfo</code>): it names both audiences. A request of{" "}
          <code>openid profile email</code> alone gets a token for userinfo only, which the Data API refuses with{" "}
          <code>401 invalid_token</code> and an <code>error_description</code> naming the audience it needs. Another resource is refused
          with <code>invalid_target</code>. Sending <code>resource={resource}</code> (RFC 8707), at authorization or at the token endpoint,
          is accepted and gives the same token.
        </p>
      </section>
      <WebhooksReference />
      {/* The same builder as GET /api/docs/data-api.json: the pages show exactly the served document, one page per tag. */}
      <OpenApiReference
        document={dataApiDocument(appUrl) as unknown as OpenApiDocument}
        documentUrl="/api/docs/data-api.json"
        basePath="/developer/docs/data-api"
      />
    </>
  );
}
