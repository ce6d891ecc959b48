import { getCurrentUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { buildResultReport } from "@/server/reports/build-result-report";

/** The session page's PDF download (same report as the results API), signed in with the app session. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await getCurrentUser();
  if (!user) return new Response("Please sign in.", { status: 401 });
  const id = Number((await params).id);
  const url = new URL(request.url);
  const lang = url.searchParams.get("lang") === "es" ? "es" : "en";
  const splits = Math.min(20, Math.max(1, Number(url.searchParams.get("splits")) || 4));
  if (!Number.isInteger(id) || id < 1) return new Response("Not found", { status: 404 });
  try {
    const { pdf, filename } = await buildResultReport(getDb(), { userId: user.id, resultId: id, lang, splits, appUrl: getEnv().appUrl });
    return new Response(new Uint8Array(pdf), { headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"` } });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return new Response("Not found", { status: 404 });
    if (error instanceof AppError) return new Response(error.message, { status: 422 });
    throw error;
  }
}
