import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { serializeSessionSummary, serializeSplits } from "../../http/data-api/serializers/sessions";
import { getCrewSeenBy, getReadableSession, getSessionAnalysis, getSessionSplits } from "../../sessions/read-session";
import type { ExportSource } from "../export-source";

/**
 * PLACEHOLDER until the builders branch (exports-builders) is merged: the
 * interface every caller uses, with only the `json` format. The merge takes
 * that branch's file over this one.
 */
export type ExportFormat = "json" | "pdf" | "pdf-full" | "xlsx" | "fit" | "tcx";
export interface ExportOptions {
  format: ExportFormat;
  athlete: 1 | 2 | 3 | 4;
  splits: number;
  lang: "en" | "es";
  mode: "full" | "privacy-safe";
  healthAllowed: boolean;
}
export interface ExportFile {
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

export async function buildExport(db: Db, source: ExportSource, viewer: { userId: number }, options: ExportOptions): Promise<ExportFile> {
  if (options.format !== "json") throw new AppError("invalid", `format: ${options.format} is not built yet`);
  const audience = { subjectId: viewer.userId, surface: options.mode === "full" ? ("data" as const) : ("partner" as const), applicationId: 0 };
  const session = await getReadableSession(db, audience, source.sessionId);
  const crew = await getCrewSeenBy(db, audience, session.id);
  if (!crew.some((seat) => seat.seat === options.athlete)) throw new AppError("not_found", "Seat not found");
  const analysis = await getSessionAnalysis(db, session.id);
  const document = {
    schema: "paddle-results.session-export",
    version: 0,
    session: { id: session.id },
    summary: analysis ? serializeSessionSummary(session.id, analysis.summary, analysis.dataQuality, false) : null,
    splits: analysis ? serializeSplits(session.id, await getSessionSplits(db, session.id, analysis, options.splits)) : null,
  };
  return { bytes: new TextEncoder().encode(`${JSON.stringify(document, null, 2)}\n`), contentType: "application/json", filename: `session-${session.id}.json` };
}
