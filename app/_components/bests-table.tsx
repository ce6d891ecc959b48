import Link from "next/link";
import { formatDuration, formatPace500 } from "@/app/_lib/format";

/** A best time over a set distance, as the records page and the athlete page list them. */
export interface BestRow {
  boatClass: string;
  distanceM: number;
  durationMs: number;
  resultId: number;
  date: string;
  /** Efforts of this boat class and distance the athlete or crew paddled. */
  sessions: number;
}

/**
 * One table of bests for the records page and the athlete page: the same columns, names and
 * widths (the colgroup), so the boards line up down a page and a best reads the same on both.
 */
export function BestsTable({
  bests,
  label,
  labelledBy,
  testId,
  className = "",
}: {
  bests: BestRow[];
  label?: string;
  labelledBy?: string;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={`table-scroll table-card ${className}`.trim()}>
      <table aria-label={label} aria-labelledby={labelledBy} data-testid={testId}>
        <colgroup>
          <col className="col-boat" />
          <col className="col-distance" />
          <col className="col-time" />
          <col className="col-time" />
          <col className="col-date" />
          <col className="col-rank" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Boat</th>
            <th scope="col" className="num">
              Distance
            </th>
            <th scope="col" className="num">
              Best time
            </th>
            <th scope="col" className="num">
              Pace /500 m
            </th>
            <th scope="col">Set on</th>
            <th scope="col" className="num">
              Efforts
            </th>
          </tr>
        </thead>
        <tbody>
          {bests.map((b) => (
            <tr key={`${b.boatClass}-${b.distanceM}`}>
              <td>{b.boatClass}</td>
              <td className="num">{b.distanceM} m</td>
              <td className="num">
                <Link href={`/sessions/${b.resultId}`}>{formatDuration(b.durationMs)}</Link>
              </td>
              <td className="num">{formatPace500((b.distanceM / b.durationMs) * 1000)}</td>
              <td>{b.date}</td>
              <td className="num">{b.sessions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
