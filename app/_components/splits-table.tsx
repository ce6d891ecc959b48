import { formatDuration, formatPace500, formatRate, formatSpeed, formatUncertainty } from "@/app/_lib/format";
import type { Split } from "@/server/svc/process/types";

/** Equal-distance splits: where each ends, its own time, elapsed time (each with its 95 % uncertainty), pace with the speed beside it, and rate. */
export function SplitsTable({ splits }: { splits: Split[] }) {
  return (
    <table aria-label="Splits">
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
            Rate
          </th>
        </tr>
      </thead>
      <tbody>
        {splits.map((split, k) => (
          <tr key={k}>
            <td>{k + 1}</td>
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
              {formatPace500(split.speed)} <span className="muted">({formatSpeed(split.speed)})</span>
            </td>
            <td className="num">{formatRate(split.rate)} spm</td>
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
