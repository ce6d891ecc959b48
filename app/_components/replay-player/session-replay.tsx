import { getDb } from "@/server/db/client";
import { replayArtifactExists } from "@/server/replay/read-replay-artifact";
import type { ModelClass } from "./playback";
import { ReplayPlayer } from "./replay-player";

/**
 * The replay section of the session page and of the public share page: the
 * player over one artifact route that the page's own access rule guards
 * (signed-in owner and crew, or a live share token), no token dance.
 */
export async function SessionReplay({ resultId, modelClass, artifactUrl }: { resultId: number; modelClass: string; artifactUrl: string }) {
  const ready = await replayArtifactExists(getDb(), resultId);
  return (
    <section aria-labelledby="replay-heading">
      <h2 id="replay-heading">Replay</h2>
      {ready ? (
        <ReplayPlayer lanes={[{ lane: 1, label: `Lane 1 · ${modelClass}`, modelClass: modelClass as ModelClass, url: artifactUrl }]} />
      ) : (
        <p className="muted">The 3D replay is being prepared (or this session could not be processed). Reload the page in a moment.</p>
      )}
    </section>
  );
}
