import { getEnv } from "../../config/env";
import { buildResultReport } from "../../reports/build-result-report";
import { ZPdfQuery } from "./contract";
import { parsePathId, parseQuery } from "./params";
import { withKeyPair } from "./with-key-pair";

/** GET /results/{id}/pdf?splits=1..20&lang=en|es: the report as an attachment. */
export const resultPdfRoute = withKeyPair<{ id: string }>({ auth: "secret", extraLimit: "pdf" }, async (ctx, params) => {
  const id = parsePathId(params.id);
  const query = parseQuery(ZPdfQuery, ctx.url);
  const { pdf, filename } = await buildResultReport(ctx.db, { userId: ctx.user.id, resultId: id, lang: query.lang, splits: query.splits, appUrl: getEnv().appUrl });
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
  });
});
