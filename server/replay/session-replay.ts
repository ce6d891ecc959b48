import type { Db } from "../db/client";
import { notFound as notFoundError } from "../errors";
import { getAccessibleResultSummary } from "../results/query-results";
import { resolveShareToken } from "../shares/share-links";
import { gzipArtifactResponse } from "./artifact-response";
import { openReplayArtifact } from "./read-replay-artifact";
import { INT4_MAX } from "../contract/values";

const notFound = () => new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });

/** The web app's artifact route: the session page's own access rule; absent and not yours are one 404 (AppError, mapped by signedInRoute). */
export async function readSessionReplay(db: Db, input: { userId: number; resultId: string }): Promise<Response> {
  const id = Number(input.resultId);
  if (!/^[1-9]\d{0,9}$/.test(input.resultId) || id > INT4_MAX) throw notFoundError("Result");
  await getAccessibleResultSummary(db, input.userId, id);
  const artifact = await openReplayArtifact(db, id);
  if (!artifact) throw notFoundError("Replay");
  return gzipArtifactResponse(artifact);
}

/** The share page's artifact route: the live share token is the only credential. */
export async function readSharedReplay(db: Db, token: string): Promise<Response> {
  const resultId = await resolveShareToken(db, token);
  const artifact = resultId === null ? null : await openReplayArtifact(db, resultId);
  return artifact ? gzipArtifactResponse(artifact) : notFound();
}
