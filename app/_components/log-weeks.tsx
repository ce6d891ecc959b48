import Link from "next/link";
import { formatVolumeKm } from "@/app/_lib/format";
import { VolumeCells, VolumeHeaderCells } from "./volume-columns";
import { getDb } from "@/server/db/client";
import type { LogQuery } from "@/server/sessions/session-log";
import { readWeeklyVolume } from "@/server/sessions/weekly-volume";

/**
 * The log's week view: each whole ISO week of the range, newest first, with
 * the week's total (each session and training once, the figure home shows for
 * the week) and a row per athlete (a crew boat counts for each athlete in it).
 * The figures come from server/sessions/weekly-volume.ts, as home's do.
 */
export async function LogWeeks({ userId, q }: { userId: number; q: LogQuery }) {
  const { from, to, weeks } = await readWeeklyVolume(getDb(), userId, q);
  const active = weeks.filter((w) => w.total.sessions + w.total.trainings > 0);
  const distanceM = weeks.reduce((sum, w) => sum + w.total.distanceM, 0);
  return (
    <section aria-labelledby="weeks-heading">
      <h2 id="weeks-heading">
        Weekly volume, {from} to {to}
      </h2>
      {active.length === 0 ? (
        <div className="card empty" data-testid="log-no-match">
          <p>No sessions or trainings in these weeks.</p>
        </div>
      ) : (
        <>
          <p className="muted">
            {formatVolumeKm(distanceM)} in {active.length} of {weeks.length} weeks (Monday to Sunday). A week&apos;s total counts each
            session and training once; a crew boat counts once for each athlete in it.
          </p>
          <div className="table-scroll table-card">
            <table aria-label="Weekly volume per athlete" data-testid="week-view" className="week-view">
              <thead>
                <tr>
                  <th scope="col">Week of</th>
                  <th scope="col">Athlete</th>
                  <VolumeHeaderCells />
                </tr>
              </thead>
              {weeks.map((week) => (
                <tbody key={week.weekStart} data-week={week.weekStart}>
                  {week.athletes.length === 0 && week.total.sessions + week.total.trainings === 0 ? (
                    <tr className="rest-row" data-testid="empty-week">
                      <td>{week.weekStart}</td>
                      <td colSpan={6}>No sessions or trainings</td>
                    </tr>
                  ) : (
                    <>
                      {week.athletes.map((w) => (
                        <tr key={w.athleteId}>
                          <td>{w.weekStart}</td>
                          <td>
                            <Link href={`/athletes/${w.athleteId}`}>{w.athleteName}</Link>
                          </td>
                          <VolumeCells v={w} />
                        </tr>
                      ))}
                      <tr className="week-total" data-testid="week-total">
                        <td>{week.weekStart}</td>
                        <th scope="row">Week total</th>
                        <VolumeCells v={week.total} />
                      </tr>
                    </>
                  )}
                </tbody>
              ))}
            </table>
          </div>
        </>
      )}
    </section>
  );
}
