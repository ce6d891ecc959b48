import { formatDuration, formatPace500, formatRate, formatSpeed } from "@/app/_lib/format";
import type { Split } from "@/server/svc/process/types";

/** Equal-distance splits: where each ends, its own time, elapsed time, pace with the speed beside it, and rate. */
export function SplitsTable({ splits }: { splits: Split[] }) {
  return (
    <table aria-label="Splits">
      <thead>
        <tr>
          <th scope="col">Split</th>
          <th scope="col" className="num">At</th>
          <th scope="col" className="num">Split time</th>
          <th scope="col" className="num">Elapsed</th>
          <th scope="col" className="num">Pace /500 m (m/s)</th>
          <th scope="col" className="num">Rate</th>
        </tr>
      </thead>
      <tbody>
        {splits.map((split, k) => (
          <tr key={k}>
            <td>{k + 1}</td>
            <td className="num">{Math.round(split.distance_m)} m</td>
            <td className="num">{formatDuration(split.split_time_s * 1000)}</td>
            <td className="num">{formatDuration(split.time_s * 1000)}</td>
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
