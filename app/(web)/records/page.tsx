import type { Metadata } from "next";
import Link from "next/link";
import { BestsTable } from "@/app/_components/bests-table";
import { formatDuration, formatPace500 } from "@/app/_lib/format";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { loadWebRecords, type BestEffort } from "@/server/records/web-records";

export const metadata: Metadata = { title: "Records" };

const pace = (b: BestEffort) => formatPace500((b.distanceM / b.durationMs) * 1000);

/**
 * Records (docs/web-app.md "Records"): a team leaderboard per boat class and
 * distance, then each athlete's bests and each crew's, never mixed.
 */
export default async function RecordsPage() {
  const user = await requireUser();
  const { athletes, crews, leaderboards } = await loadWebRecords(getDb(), user.id);
  return (
    <>
      <h1>Records</h1>
      <p className="muted">
        Best times over a set distance, per athlete and per crew: a K1 time and a K2 time are separate bests, and a crew is its paddlers in
        any seat order.
      </p>
      {athletes.length === 0 && crews.length === 0 ? (
        <div className="card empty">
          <p>No records yet: they appear with the first distance effort.</p>
        </div>
      ) : null}

      {leaderboards.map((team) => (
        <section key={team.teamId} aria-labelledby={`team-${team.teamId}`}>
          <h2 id={`team-${team.teamId}`}>Leaderboard · {team.teamName}</h2>
          {team.boards.map((board) => (
            <div key={`${board.boatClass}-${board.distanceM}`} className="table-scroll table-card records-board" data-testid="leaderboard">
              <table aria-label={`${team.teamName} ${board.boatClass} ${board.distanceM} m`}>
                <caption className="records-caption">
                  {board.boatClass} · {board.distanceM} m
                </caption>
                <colgroup>
                  <col className="col-rank" />
                  <col />
                  <col className="col-time" />
                  <col className="col-time" />
                  <col className="col-date" />
                </colgroup>
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      #
                    </th>
                    <th scope="col">{board.boatClass.endsWith("1") ? "Athlete" : "Crew"}</th>
                    <th scope="col" className="num">
                      Time
                    </th>
                    <th scope="col" className="num">
                      Pace /500 m
                    </th>
                    <th scope="col">Set on</th>
                  </tr>
                </thead>
                <tbody>
                  {board.entries.map((e) => (
                    <tr key={e.crewKey}>
                      <td className="num">{e.rank}</td>
                      <td>{e.crew.join(", ")}</td>
                      <td className="num">
                        <Link href={`/sessions/${e.resultId}`}>{formatDuration(e.durationMs)}</Link>
                      </td>
                      <td className="num">{pace(e)}</td>
                      <td>{e.date}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </section>
      ))}

      {athletes.length ? (
        <section aria-labelledby="athlete-bests">
          <h2 id="athlete-bests">Bests per athlete</h2>
          {athletes.map((a) => (
            <div key={a.athleteId} className="stack">
              <h3>
                <Link href={`/athletes/${a.athleteId}`}>{a.name}</Link>
              </h3>
              <BestsTable label={`Bests of ${a.name}`} bests={a.bests} className="records-board" />
            </div>
          ))}
        </section>
      ) : null}

      {crews.length ? (
        <section aria-labelledby="crew-bests">
          <h2 id="crew-bests">Bests per crew</h2>
          {crews.map((c) => (
            <div key={c.key} className="stack">
              <h3>
                {c.boatClass} · {c.crew.join(", ")}
              </h3>
              <BestsTable label={`Bests of the ${c.boatClass} ${c.crew.join(", ")}`} bests={c.bests} className="records-board" />
            </div>
          ))}
        </section>
      ) : null}
    </>
  );
}
