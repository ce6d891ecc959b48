import type { Metadata } from "next";
import Link from "next/link";
import { OpenApiReference, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { requireUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { dataApiDocument } from "@/server/http/data-api/openapi";

export const metadata: Metadata = { title: "Data API reference" };

export default async function DataApiReferencePage() {
  await requireUser("/developer/docs/data-api");
  return (
    <>
      <h1>Data API reference</h1>
      <p className="muted">
        Get an access token with an <Link href="/developer/applications">OAuth application</Link> you registered; then try any operation below from this page.
      </p>
      {/* The same builder as GET /api/docs/data-api.json: the page shows exactly the served document. */}
      <OpenApiReference document={dataApiDocument(getEnv().appUrl) as unknown as OpenApiDocument} documentUrl="/api/docs/data-api.json" tryIt />
    </>
  );
}
