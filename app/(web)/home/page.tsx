import type { Metadata } from "next";
import Link from "next/link";
import { formatDuration, formatVolumeKm as km, formatVolumeTime as hm } from "@/app/_lib/format";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { readHomeSummary } from "@/server/home/home-summary";
import { VolumeCells, VolumeHeaderCells } from "@/app/_components/volume-columns";
import { PlanWeekCard } from "./plan-week-card";
import { UnreadComments } from "./unread-comments";
import { VolumeChart } from "./volume-chart";
import { WaitingPanel } from "./waiting-panel";

export const metadata: Metadata = { title: "Home" };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The signed-in home (docs/web-app.md "Home"): this week per athlete, the
 * season's weekly volume, the latest bests and what is waiting. A coach reads
 * the club; an athlete themselves (server/home/home-summary.ts).
 */
export default async function Home() {
  const user = await requireUser();
  const home = await readHomeSummary(getDb(), user.id);
  const week = home.weeks.at(-1)!;
  const active = home.weeks.filter((w) => w.sessions + w.trainings > 0);
  const weekEnd = new Date(Date.parse(`${home.weekStart}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
  return (
    <>
      <div className="page-header">
        <h1>Home</h1>
        <div className="row">
          <Link className="button secondary" href="/">
            Sessions log
          </Link>
          <Link className="button secondary" href={`/?view=calendar&month=${home.weekStart.slice(0, 7)}`}>
            Calendar
          </Link>
        </div>
      </div>
      <UnreadComments userId={user.id} />

      <section aria-labelledby="week-heading" className="stack">
        <h2 id="week-heading">
          This week{" "}
          <span className="muted">
            ({home.weekStart} to {weekEnd})
          </span>
        </h2>
        <p data-testid="week-totals">
          {plural(week.sessions, "session")}, {plural(week.trainings, "training")} · {km(week.distanceM)} · {hm(week.durationMs)} on the
          water · {hm(week.workMs)} in work sets
        </p>
        {home.thisWeek.length ? (
          <div className="table-scroll table-card">
            <table aria-label="This week per athlete" data-testid="week-athletes" className="week-athletes">
              <thead>
                <tr>
                  <th scope="col">Athlete</th>
                  <VolumeHeaderCells countClass="week-count-col" />
                </tr>
              </thead>
              <tbody>
                {home.thisWeek.map((a) => (
                  <tr key={a.athleteId}>
                    <th scope="row">
                      <Link href={`/athletes/${a.athleteId}`}>{a.athleteName}</Link>
                      <span className="week-counts muted">
                        {plural(a.sessions, "session")}, {plural(a.trainings, "training")}
                      </span>
                    </th>
                    <VolumeCells v={a} countClass="week-count-col" />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="card empty">Nothing on the water yet this week.</p>
        )}
      </section>

      <PlanWeekCard userId={user.id} />

      <section aria-labelledby="season-heading">
        <h2 id="season-heading" className="visually-hidden">
          The season
        </h2>
        {active.length ? (
          <VolumeChart
            points={home.weeks.map((w) => ({
              week: w.weekStart,
              km: Number((w.distanceM / 1000).toFixed(2)),
              minutes: Number((w.durationMs / 60_000).toFixed(1)),
              workMinutes: Number((w.workMs / 60_000).toFixed(1)),
            }))}
            summary={`${home.weeks.length} weeks to ${weekEnd}: ${km(home.weeks.reduce((s, w) => s + w.distanceM, 0))} in ${active.length} active weeks, most in the week of ${[...home.weeks].sort((a, b) => b.distanceM - a.distanceM)[0].weekStart}.`}
          />
        ) : (
          <p className="card empty">The weekly volume chart appears once sessions are uploaded.</p>
        )}
      </section>

      <div className="home-columns">
        <WaitingPanel waiting={home.waiting} />
        <section aria-labelledby="bests-heading">
          <h2 id="bests-heading">Latest bests</h2>
          {home.bests.length ? (
            <ul className="card plain-list" data-testid="latest-bests">
              {home.bests.map((b) => (
                <li key={b.resultId}>
                  <Link href={`/sessions/${b.resultId}`}>
                    {b.boatClass} {b.distanceM} m · {formatDuration(b.durationMs)}
                  </Link>{" "}
                  <span className="muted">
                    {b.crew} · {b.date}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No distance efforts yet.</p>
          )}
          <p>
            <Link href="/records">All records</Link>
          </p>
        </section>
      </div>
    </>
  );
}
