import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OpenApiReference, referenceTags, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { requireUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { resultsApiDocument } from "@/server/http/results-api/openapi";
import { getDb } from "@/server/db/client";
import { ownUploadIds } from "@/app/_lib/own-upload-ids";
import { uploadMetadata } from "@/app/_lib/sample-request";

type Params = { params: Promise<{ tag: string }> };

const tagOfSlug = (slug: string) =>
  referenceTags(resultsApiDocument(getEnv().appUrl) as unknown as OpenApiDocument).find((t) => t.slug === slug)?.tag;

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const tag = tagOfSlug((await params).tag);
  return { title: tag ? `${tag} · Results API reference` : "Results API reference" };
}

/** One tag's operations of the results API in full, with the Try it panel. */
export default async function ResultsApiTagPage({ params }: Params) {
  const { tag: slug } = await params;
  const user = await requireUser(`/developer/docs/results-api/${encodeURIComponent(slug)}`);
  const tag = tagOfSlug(slug);
  if (!tag) notFound();
  const ids = await ownUploadIds(getDb(), user.id);
  return (
    <>
      <h1>Results API reference: {tag}</h1>
      <p className="muted">
        Operations take a <Link href="/developer/keys">key pair</Link> of yours: <code>Authorization: Bearer PUBLIC.SECRET</code> (vessels,
        categories and paces also take the public key alone; <code>GET /health</code> needs nothing). Try any of them from this page.
      </p>
      <OpenApiReference
        document={resultsApiDocument(getEnv().appUrl) as unknown as OpenApiDocument}
        documentUrl="/api/docs/results-api.json"
        basePath="/developer/docs/results-api"
        tag={tag}
        tryIt="keyPair"
        uploadMetadata={ids ? uploadMetadata(ids) : undefined}
        beforeTryIt={
          ids ? null : (
            <p className="notice" data-testid="upload-create-first">
              An upload names one of your tracks and your athletes (any other id answers 403), and you have none yet: create a track under{" "}
              <Link href="/tracks">Tracks</Link> and an athlete under <Link href="/athletes">Athletes</Link> first; the upload’s metadata
              below then starts from their ids.
            </p>
          )
        }
      />
    </>
  );
}
