import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { loadOr404, parseId } from "@/app/_lib/params";
import { requireUser } from "@/server/auth/current-user";
import { loadSessionView } from "./load-session-view";
import { SessionReplay } from "@/app/_components/replay-player/session-replay";
import { SessionCursorProvider } from "@/app/_components/session-cursor";
import { SessionAnalysis } from "./session-analysis";
import { SessionCharts } from "./session-charts";
import { SessionComments } from "./session-comments";
import { SessionCourse } from "./session-course";
import { SessionCrew } from "./session-crew";
import { SessionEquipment } from "./session-equipment";
import { SessionFacts } from "./session-facts";
import { SessionHeader } from "./session-header";
import { SessionHeartRate } from "./session-heart-rate";
import { SessionResult } from "./session-result";
import { SessionSharing } from "./session-sharing";
import { SessionSplits } from "./session-splits";
import { SessionStrokes } from "./session-strokes";
import { SPLIT_COUNT } from "@/server/svc/process/track";
import { EffortLoadFacts } from "@/app/_components/effort-load";
import { getDb } from "@/server/db/client";
import { effortLoads } from "@/server/load/load-reads";

export const metadata: Metadata = { title: "Session" };

/** The session page is a composition of its sections: each is one component in this folder taking `{ view }`. */
export default async function SessionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const splitCount = Math.min(SPLIT_COUNT.max, Math.max(SPLIT_COUNT.min, Number((await searchParams).splits) || SPLIT_COUNT.default));
  const view = await loadOr404(() => loadSessionView(user, id, splitCount));
  const loads = await effortLoads(getDb(), user.id, { resultId: view.resultId });
  // Data first (docs/web-app.md "The session page: data first"): the result and the splits on the first screen, even on a
  // phone; then the charts and the replay on one cursor with the course, then the context (when, where, who) and the rest.
  return (
    <SessionCursorProvider timeline={view.timeline}>
      <SessionHeader view={view} />
      <SessionResult view={view} />
      <SessionSplits view={view} />
      <SessionCharts view={view} />
      <SessionHeartRate view={view} />
      <SessionReplay
        resultId={view.resultId}
        modelClass={view.detail.summary.vesselType}
        artifactUrl={`/sessions/${view.resultId}/replay`}
      />
      <SessionCourse view={view} />
      <SessionFacts view={view} />
      <EffortLoadFacts loads={loads} />
      <SessionCrew view={view} />
      <SessionComments view={view} />
      <SessionAnalysis view={view} />
      <SessionStrokes view={view} />
      <SessionEquipment view={view} />
      <SessionSharing view={view} />
      <p className="muted">
        <Link href="/">Back to sessions</Link>
      </p>
    </SessionCursorProvider>
  );
}
