import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OpenApiReference, referenceTags, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { TEST_TOKEN_CALLBACK_PATH } from "@/app/_lib/test-token";
import { listApplications } from "@/server/applications/applications";
import { requireUser } from "@/server/auth/current-user";
import { apiResource, issuerUrl } from "@/server/auth/oauth/config";
import { getEnv } from "@/server/config/env";
import { getDb } from "@/server/db/client";
import { dataApiDocument } from "@/server/http/data-api/openapi";
import { TestToken, type TestTokenApplication } from "../test-token";

type Params = { params: Promise<{ tag: string }> };

const tagOfSlug = (slug: string) =>
  referenceTags(dataApiDocument(getEnv().appUrl) as unknown as OpenApiDocument).find((t) => t.slug === slug)?.tag;

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const tag = tagOfSlug((await params).tag);
  return { title: tag ? `${tag} · Data API reference` : "Data API reference" };
}

/** One tag's operations of the Data API in full, with the Try it panel and the test token. */
export default async function DataApiTagPage({ params }: Params) {
  const { tag: slug } = await params;
  const user = await requireUser(`/developer/docs/data-api/${encodeURIComponent(slug)}`);
  const tag = tagOfSlug(slug);
  if (!tag) notFound();
  const { appUrl } = getEnv();
  const issuer = issuerUrl(appUrl);
  const callbackUrl = `${appUrl}${TEST_TOKEN_CALLBACK_PATH}`;
  // Only what the test-token form needs of each application (never the secret's hash or anything else).
  const applications: TestTokenApplication[] = (await listApplications(getDb(), user.id)).map((a) => ({
    id: a.id,
    name: a.name,
    clientId: a.clientId,
    clientType: a.clientType,
    surface: a.surface,
    scopes: a.scopes,
    hasCallback: a.redirectUris.includes(callbackUrl),
    usable: a.reviewStatus === "approved" || a.reviewStatus === "not_required",
  }));
  return (
    <>
      <h1>Data API reference: {tag}</h1>
      <p className="muted">
        Every operation but <code>GET /health</code> takes an OAuth access token of an{" "}
        <Link href="/developer/applications">application you registered</Link> (
        <Link href="/developer/docs/data-api">how to obtain one</Link>); try any of them from this page.
      </p>
      <OpenApiReference
        document={dataApiDocument(appUrl) as unknown as OpenApiDocument}
        documentUrl="/api/docs/data-api.json"
        basePath="/developer/docs/data-api"
        tag={tag}
        tryIt="token"
        beforeTryIt={
          <TestToken
            applications={applications}
            callbackUrl={callbackUrl}
            authorizeUrl={`${issuer}/oauth/authorize`}
            tokenUrl={`/api/oauth/token`}
            resource={apiResource(appUrl)}
          />
        }
      />
    </>
  );
}
