import { getDb, pingDb } from "@/server/db/client";

// Both APIs own GET /health and it needs no credential: the body satisfies the
// results API ({status: "ok"}) and the Data API envelope ({data: …}) at once.
export async function GET() {
  const healthy = await pingDb(getDb()).catch(() => false);
  const status = healthy ? "ok" : "unavailable";
  return Response.json({ status, data: { status } }, { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
