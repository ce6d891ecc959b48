import { getCurrentUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { readSessionReplay } from "@/server/replay/session-replay";

/** The session page's replay artifact, for the signed-in people who may open the session (owner, crew, their coaches). */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await getCurrentUser();
  return readSessionReplay(getDb(), { userId: user?.id ?? null, resultId: (await params).id });
}
