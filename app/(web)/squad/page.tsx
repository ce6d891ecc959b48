import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { parseSquadSort, squadLoad, type SquadSortKey } from "@/server/load/load-reads";

export const metadata: Metadata = { title: "Squad" };

const COLUMNS: { key: SquadSortKey; label: string; numeric: boolean }[] = [
  { key: "name", label: "Athlete", numeric: false },
  { key: "week", label: "This week", numeric: true },
  { key: "average", label: "4-week average", numeric: true },
  { key: "form", label: "Form today", numeric: true },
];

/** A coach's squad (docs/load.md "Pages"): every athlete they see, this week's speed load, the 4-week mean, form; sorted on the server by `?sort=`. */
export default async function SquadPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const sort = parseSquadSort((await searchParams).sort);
  const today = new Date().toISOString().slice(0, 10);
  const rows = await squadLoad(getDb(), user.id, today, sort);
  return (
    <>
      <h1>Squad</h1>
      <p className="muted">
        Speed load of each athlete you coach: this week so far, the mean of the four weeks before, and form today (fitness minus fatigue).
      </p>
      {rows.length ? (
        <div className="table-card">
          <table data-testid="squad-table" aria-label="Squad training load">
            <thead>
              <tr>
                {COLUMNS.map((c) => {
                  const active = sort.key === c.key;
                  // A second click on the sorted column turns the order round; numbers start from the highest.
                  const next = active ? (sort.descending ? c.key : `-${c.key}`) : c.numeric ? `-${c.key}` : c.key;
                  return (
                    <th
                      key={c.key}
                      scope="col"
                      className={c.numeric ? "num" : undefined}
                      aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}
                    >
                      <Link href={`/squad?sort=${next}`} data-sort={c.key}>
                        {c.label}
                        {active ? (sort.descending ? " ↓" : " ↑") : ""}
                      </Link>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.athleteId} data-athlete={r.athleteId}>
                  <td>
                    <Link href={`/athletes/${r.athleteId}/load`}>{r.name}</Link>
                  </td>
                  <td className="num" data-col="week">
                    {r.weekLoad}
                  </td>
                  <td className="num" data-col="average">
                    {r.fourWeekAverage}
                  </td>
                  <td className="num" data-col="form">
                    {r.form}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No athletes yet: the athletes you manage or coach in a team appear here.</p>
      )}
    </>
  );
}
