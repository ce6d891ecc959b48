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
      <h2 id="heart-rate-heading">{hr.shared ? "Heart rate (shared with you)" : "Your heart rate"}</h2>
      <p className="muted">
        {hr.shared
          ? "Recorded by the strap in the stroke seat (seat 1). The paddler shares their heart rate with their coaches and can stop at any time."
          : "Recorded by the strap in the stroke seat (seat 1): yours. Only you see it here, and your coaches if you share it."}
      </p>
      <HeartRateChart points={hr.points} summary={summary} distanceM={view.detail.summary.distanceM} />
    </section>
  );
}
