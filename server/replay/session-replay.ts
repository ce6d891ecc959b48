import type { Db } from "../db/client";
import { AppError } from "../errors";
import { getAccessibleResultSummary } from "../results/query-results";
import { resolveShareToken } from "../shares/share-links";
import { gzipArtifactResponse } from "./artifact-response";
import { openReplayArtifact } from "./read-replay-artifact";

const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });

/** The web app's artifact route: the session page's own access rule; not signed in, absent and not yours are one 404. */
export async function readSessionReplay(db: Db, input: { userId: number | null; resultId: string }): Promise<Response> {
  const id = Number(input.resultId);
  if (input.userId === null || !/^[1-9]\d{0,9}$/.test(input.resultId) || id > 2_147_483_647) return notFound();
  try {
    await getAccessibleResultSummary(db, input.userId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return notFound();
    throw error;
  }
  const artifact = await openReplayArtifact(db, id);
  return artifact ? gzipArtifactResponse(artifact) : notFound();
}

/** The share page's artifact route: the live share token is the only credential. */
export async function readSharedReplay(db: Db, token: string): Promise<Response> {
  const resultId = await resolveShareToken(db, token);
  const artifact = resultId === null ? null : await openReplayArtifact(db, resultId);
  return artifact ? gzipArtifactResponse(artifact) : notFound();
}
