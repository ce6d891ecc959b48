import { formatPace500 } from "@/app/_lib/format";
import type { SessionView } from "./load-session-view";

/** Every stroke, scrolling inside its card on narrow screens. */
export function SessionStrokes({ view }: { view: SessionView }) {
  const strokes = view.detail.strokes;
  const kayak = view.detail.summary.vesselType.startsWith("K");
  return (
    <section aria-labelledby="strokes-heading">
      <h2 id="strokes-heading">Strokes ({strokes.length})</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Strokes table, scrolls sideways">
        <table aria-label="Strokes">
          <thead>
            <tr>
              <th scope="col" className="num">
                #
              </th>
              {kayak ? <th scope="col">Side</th> : null}
              <th scope="col" className="num">
                Distance
              </th>
              <th scope="col" className="num">
                Pace /500 m
              </th>
              <th scope="col" className="num">
                Speed
              </th>
              <th scope="col" className="num">
                Rate
              </th>
              <th scope="col" className="num">
                Stroke distance
              </th>
              <th scope="col" className="num">
                Accel max / min
              </th>
              <th scope="col" className="num">
                Pitch / roll
              </th>
            </tr>
          </thead>
          <tbody>
            {strokes.map((stroke) => (
              <tr key={stroke.strokeIndex}>
                <td className="num">{stroke.strokeIndex + 1}</td>
                {kayak ? <td>{stroke.side}</td> : null}
                <td className="num">{stroke.distanceM?.toFixed(1)} m</td>
                <td className="num">{formatPace500(stroke.filteredSpeedMS)}</td>
                <td className="num">{stroke.filteredSpeedMS?.toFixed(2)} m/s</td>
                <td className="num">{stroke.rateSpm?.toFixed(1)}</td>
                <td className="num">
                  {(stroke.strokeDistanceM ?? stroke.leftStrokeDistanceM ?? stroke.rightStrokeDistanceM)?.toFixed(2)} m
                </td>
                <td className="num">
                  {stroke.maxAccelXMS2?.toFixed(1)} / {stroke.minAccelXMS2?.toFixed(1)}
                </td>
                <td className="num">
                  {stroke.maxPitchDeg?.toFixed(1)}° / {stroke.maxRollDeg?.toFixed(1)}°
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
