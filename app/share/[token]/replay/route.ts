import { getDb } from "@/server/db/client";
import { readSharedReplay } from "@/server/replay/session-replay";

/** The public share page's replay artifact: answers while the share link is live. */
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return readSharedReplay(getDb(), (await params).token);
}
