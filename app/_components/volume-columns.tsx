import { formatVolumeKm, formatVolumeTime } from "@/app/_lib/format";
import type { Volume } from "@/server/sessions/weekly-volume";

/**
 * The five volume columns of a week's table (the log's week view, home's "This week"): one header
 * and one way to print them, so a week's figure reads the same on both pages (issue 28 §6).
 * `countClass` lets a page hide the two count columns on a phone where the row says them in words.
 */
export function VolumeHeaderCells({ countClass }: { countClass?: string }) {
  const count = countClass ? `num ${countClass}` : "num";
  return (
    <>
      <th scope="col" className={count}>
        Sessions
      </th>
      <th scope="col" className={count}>
        Trainings
      </th>
      <th scope="col" className="num">
        Distance
      </th>
      <th scope="col" className="num">
        On the water
      </th>
      <th scope="col" className="num">
        Work sets
      </th>
    </>
  );
}

/** The figures a row prints: any per-athlete or per-week volume (home's athlete weeks carry fewer fields than `Volume`). */
type VolumeFigures = Pick<Volume, "sessions" | "trainings" | "distanceM" | "durationMs" | "workMs">;

export function VolumeCells({ v, countClass }: { v: VolumeFigures; countClass?: string }) {
  const count = countClass ? `num ${countClass}` : "num";
  return (
    <>
      <td className={count}>{v.sessions}</td>
      <td className={count}>{v.trainings}</td>
      <td className="num" data-figure="distance">
        {formatVolumeKm(v.distanceM)}
      </td>
      <td className="num">{formatVolumeTime(v.durationMs)}</td>
      <td className="num">{formatVolumeTime(v.workMs)}</td>
    </>
  );
}
