import { formatDuration, formatPace500, formatRate, formatSpeed, formatUncertainty } from "@/app/_lib/format";
import type { Split } from "@/server/svc/process/types";

/**
 * Equal-distance splits: where each ends, its own time, elapsed time (each with its 95 % uncertainty), pace with the
 * speed beside it, and rate. With `seekable` (the session page), each split's number is a button that plays the replay
 * from the split's start (its `data-seek-m`; app/(web)/sessions/[id]/splits-cursor.tsx listens). With `rowIds`, each
 * row is the anchor `#split-N` a comment's moment links to (docs/comments.md "Moments"). On a phone the uncertainty
 * and the speed go under their figures, so every column fits the screen (docs/web-app.md).
 */
export function SplitsTable({ splits, seekable = false, rowIds = false }: { splits: Split[]; seekable?: boolean; rowIds?: boolean }) {
  return (
    <table aria-label="Splits" className="splits-table">
      <thead>
        <tr>
          <th scope="col">Split</th>
          <th scope="col" className="num">
            At
          </th>
          <th scope="col" className="num">
            Split time
          </th>
          <th scope="col" className="num">
            Elapsed
          </th>
          <th scope="col" className="num">
            Pace /500 m (m/s)
          </th>
          <th scope="col" className="num">
            Rate<span className="split-unit-head"> (spm)</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {splits.map((split, k) => (
          <tr
            key={k}
            id={rowIds ? `split-${k + 1}` : undefined}
            className={rowIds ? "moment-row" : undefined}
            data-from-m={k === 0 ? 0 : splits[k - 1].distance_m}
            data-to-m={split.distance_m}
          >
            <td>
              {seekable ? (
                <button
                  type="button"
                  className="link-button split-seek"
                  data-seek-m={k === 0 ? 0 : splits[k - 1].distance_m}
                  aria-label={`Replay from split ${k + 1}`}
                >
                  {k + 1}
                </button>
              ) : (
                k + 1
              )}
            </td>
            <td className="num">{Math.round(split.distance_m)} m</td>
            <td className="num">
              {formatDuration(split.split_time_s * 1000)}
              <Uncertainty seconds={split.split_uncertainty_s} testId="split-own-uncertainty" />
            </td>
            <td className="num">
              {formatDuration(split.time_s * 1000)}
              <Uncertainty seconds={split.time_uncertainty_s} testId="split-elapsed-uncertainty" />
            </td>
            <td className="num">
              {formatPace500(split.speed)} <span className="muted split-speed">({formatSpeed(split.speed)})</span>
            </td>
            <td className="num">
              {formatRate(split.rate)}
              <span className="split-unit"> spm</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** " ± 0.04" after a time, muted; nothing when there is no figure to state. */
export function Uncertainty({ seconds, testId }: { seconds: number | null | undefined; testId?: string }) {
  const text = formatUncertainty(seconds);
  return text ? (
    <span className="muted uncertainty" data-testid={testId} title="95 % uncertainty of this time, from the recording's own noise">
      {" "}
      {text}
    </span>
  ) : null;
}
