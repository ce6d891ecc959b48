import Link from "next/link";
import { paceSentence } from "@/server/analytics/findings";
import type { SessionView } from "./load-session-view";

/** After the result, the analysis: what the splits say about the pacing, and the way to the eleven analyses. */
export function SessionAnalysis({ view }: { view: SessionView }) {
  const splits = view.splits;
  const segments = splits.map((s, i) => ({ from_m: i ? splits[i - 1].distance_m : 0, to_m: s.distance_m, speed_m_s: s.speed }));
  return (
    <section aria-labelledby="analysis-heading">
      <h2 id="analysis-heading">Analysis</h2>
      {segments.length >= 2 ? (
        <p className="analysis-finding" data-testid="session-pacing-finding">
          {paceSentence(segments, view.detail.crew.length > 1 ? "the crew" : "the paddler")}
        </p>
      ) : null}
      <p>
        <Link href={`/sessions/${view.resultId}/analysis`}>Analysis: pacing, start, finish, side balance and more</Link>
      </p>
    </section>
  );
}
