import { CourseMap } from "@/app/_components/course-map";
import { speedColour } from "@/app/_lib/speed-colour";
import { getEnv } from "@/server/config/env";
import { courseMap } from "@/server/results/course-map";
import { sessionFigures, speedRange, speedRangeSentence } from "@/server/results/figures";
import type { SessionView } from "./load-session-view";

/** The course on a map, coloured by speed, with start and split markers, and the same in words. */
export function SessionCourse({ view }: { view: SessionView }) {
  const { analysis } = view;
  if (!analysis) return null;
  const splits = view.splits;
  const data = courseMap(
    analysis.track,
    splits.map((s) => s.distance_m),
  );
  // The range in words is the effort's (the same sentence as the speed chart's), not the downsampled map points'.
  const range = speedRange(analysis.track, sessionFigures(analysis.summary));
  return (
    <section aria-labelledby="course-heading">
      <h2 id="course-heading">Course</h2>
      {data ? (
        <figure className="card course">
          <CourseMap data={data} tileUrl={getEnv().MAP_TILE_URL ?? null} label="Map of the course, coloured by speed" />
          <figcaption>
            <p className="legend" aria-hidden="true">
              <span style={{ background: speedColour(data.minSpeed, data.minSpeed, data.maxSpeed) }} /> slower
              <span style={{ background: speedColour(data.maxSpeed, data.minSpeed, data.maxSpeed) }} /> faster · ● start · ○ split ends
            </p>
            <p data-testid="course-summary">
              The course starts at {data.points[0][0].toFixed(5)}, {data.points[0][1].toFixed(5)}. {range ? speedRangeSentence(range) : ""}
              {data.splits.length ? ` Split markers at ${data.splits.map((s) => `${Math.round(s.distanceM)} m`).join(", ")}.` : ""}
            </p>
          </figcaption>
        </figure>
      ) : (
        <p className="muted">The file has no GNSS fixes for this effort, so there is no course to draw.</p>
      )}
    </section>
  );
}
