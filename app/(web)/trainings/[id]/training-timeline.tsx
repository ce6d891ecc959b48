import { formatDuration } from "@/app/_lib/format";
import type { TrainingSetView } from "@/server/trainings/training-view";

const clock = (s: number) => {
  const whole = Math.max(0, Math.round(s));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

/**
 * Work sets and rests as one bar, each part as wide as its share of the
 * time from the first set's start to the last set's end. The bar is a
 * picture; the sentence and the list say the same in words.
 */
export function TrainingTimeline({ sets }: { sets: TrainingSetView[] }) {
  if (!sets.length) return null;
  const origin = sets[0].startS;
  const total = Math.max(1e-6, sets[sets.length - 1].endS - origin);
  const work = sets.filter((s) => s.kind === "work");
  const rests = sets.filter((s) => s.kind === "rest");
  const workMs = work.reduce((sum, s) => sum + s.durationMs, 0);
  const restMs = rests.reduce((sum, s) => sum + s.durationMs, 0);
  const label = (s: TrainingSetView) => (s.kind === "work" ? `Work ${s.workNumber}` : "Rest");
  return (
    <figure className="card timeline" aria-labelledby="timeline-title" aria-describedby="timeline-summary">
      <figcaption id="timeline-title">
        <strong>Timeline</strong>
      </figcaption>
      <p id="timeline-summary" className="chart-summary">
        {work.length} work set{work.length === 1 ? "" : "s"} ({formatDuration(workMs)} of work) and {rests.length} rest
        {rests.length === 1 ? "" : "s"} ({formatDuration(restMs)}) over {formatDuration(total * 1000)}.
      </p>
      <div className="timeline-bar" aria-hidden="true" data-testid="timeline-bar">
        {sets.map((s) => (
          <span
            key={s.id}
            className={s.kind}
            style={{ width: `${(((s.endS - s.startS) / total) * 100).toFixed(3)}%` }}
            title={`${label(s)}: ${clock(s.startS - origin)}–${clock(s.endS - origin)}, ${s.distanceM} m`}
          />
        ))}
      </div>
      <p className="timeline-scale muted" aria-hidden="true">
        <span>0:00</span>
        <span>{clock(total)}</span>
      </p>
      <details>
        <summary>Timeline as a list</summary>
        <ol className="timeline-list">
          {sets.map((s) => (
            <li key={s.id}>
              {label(s)}: {clock(s.startS - origin)} to {clock(s.endS - origin)}, {s.distanceM} m{s.corrected ? " (corrected)" : ""}
            </li>
          ))}
        </ol>
      </details>
    </figure>
  );
}
