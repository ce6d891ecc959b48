import { getDb } from "@/server/db/client";
import { listShareLinks } from "@/server/shares/share-links";
import type { SessionView } from "./load-session-view";
import { ShareLinks } from "./session-actions";

/** Public read-only links to this session. */
export async function SessionSharing({ view }: { view: SessionView }) {
  const links = await listShareLinks(getDb(), view.user.id, view.resultId);
  return (
    <section aria-labelledby="share-heading">
      <h2 id="share-heading">Share links</h2>
      <ShareLinks
        resultId={view.resultId}
        links={links.map((l) => ({
          id: l.id,
          origin: l.origin,
          createdAt: l.createdAt.toISOString().slice(0, 16).replace("T", " "),
          revoked: l.revokedAt !== null,
        }))}
      />
    </section>
  );
}
