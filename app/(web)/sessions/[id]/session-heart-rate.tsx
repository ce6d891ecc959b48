import { HeartRateChart } from "@/app/_components/heart-rate-chart";
import type { SessionView } from "./load-session-view";

/** The seat-1 paddler's heart rate along the distance, only for that paddler (server/health/viewer-session.ts). */
export function SessionHeartRate({ view }: { view: SessionView }) {
  const hr = view.heartRate;
  if (!hr) return null;
  const highest = hr.points.reduce((a, b) => (b.bpm > a.bpm ? b : a));
  const lowest = hr.points.reduce((a, b) => (b.bpm < a.bpm ? b : a));
  const summary = `From ${lowest.bpm} to ${highest.bpm} bpm${hr.avg !== null ? `, average ${Math.round(hr.avg)}` : ""}; highest at ${Math.round(highest.distance)} m.`;
  return (
    <section aria-labelledby="heart-rate-heading">
      <h2 id="heart-rate-heading">Your heart rate</h2>
      <p className="muted">Recorded by the strap in the stroke seat (seat 1): yours. Only you see it here.</p>
      <HeartRateChart points={hr.points} summary={summary} distanceM={view.detail.summary.distanceM} />
    </section>
  );
}
