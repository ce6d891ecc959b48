import { getEnv } from "@/server/config/env";
import { notFound } from "@/server/errors";
import { signedInRoute } from "@/server/http/signed-in-route";
import { buildResultReport } from "@/server/reports/build-result-report";
import { INT4_MAX } from "@/server/contract/values";
import { SPLIT_COUNT } from "@/server/svc/process/track";

/** The session page's PDF download (the results API's report), signed in with the app session. */
export const GET = signedInRoute(async ({ db, url, user, params }) => {
  const id = /^[1-9]\d{0,9}$/.test(params.id) ? Number(params.id) : NaN;
  if (!(id <= INT4_MAX)) throw notFound("Session");
  const lang = url.searchParams.get("lang") === "es" ? "es" : "en";
  const splits = Math.min(SPLIT_COUNT.max, Math.max(SPLIT_COUNT.min, Number(url.searchParams.get("splits")) || SPLIT_COUNT.default));
  const { pdf, filename } = await buildResultReport(db, { userId: user.id, resultId: id, lang, splits, appUrl: getEnv().appUrl });
  return new Response(new Uint8Array(pdf), {
    headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"` },
  });
});
