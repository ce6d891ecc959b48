import type { Metadata } from "next";
import Link from "next/link";
import { OpenApiReference, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { requireUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { resultsApiDocument } from "@/server/http/results-api/openapi";

export const metadata: Metadata = { title: "Results API reference" };

/** The index of the results API reference: each tag's operations are a page of their own (docs/web-app.md "API references"). */
export default async function ResultsApiReferencePage() {
  await requireUser("/developer/docs/results-api");
  return (
    <>
      <h1>Results API reference</h1>
      <p className="muted">
        Operations take a <Link href="/developer/keys">key pair</Link> of yours: <code>Authorization: Bearer PUBLIC.SECRET</code> (vessels,
        categories and paces also take the public key alone; <code>GET /health</code> needs nothing). Try any of them from its
        section&apos;s page.
      </p>
      <OpenApiReference
        document={resultsApiDocument(getEnv().appUrl) as unknown as OpenApiDocument}
        documentUrl="/api/docs/results-api.json"
        basePath="/developer/docs/results-api"
      />
    </>
  );
}
