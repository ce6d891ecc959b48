import type { Metadata } from "next";
import Link from "next/link";
import { formatDuration, formatPace500, formatRate } from "@/app/_lib/format";
import { requireUser } from "@/server/auth/current-user";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { getDb } from "@/server/db/client";
import {
  parseSetChoice,
  readSetChoices,
  readSetHistory,
  setChoiceKey,
  type HistoryEntry,
  type SetChoices,
} from "@/server/trainings/set-history";
import { SERIES_COLOURS, SetHistoryChart } from "./set-history-chart";

export const metadata: Metadata = { title: "Set history" };

const ID = /^[1-9]\d{0,8}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/** "+1.2 s (1.0 %)": the last rep against the first; positive is slower. */
function fadeText(e: HistoryEntry): string {
  if (e.fadeS === null) return "—";
  const sign = e.fadeS > 0.05 ? "+" : e.fadeS < -0.05 ? "−" : "±";
  return `${sign}${Math.abs(e.fadeS).toFixed(1)} s (${sign}${Math.abs((e.fadeRatio ?? 0) * 100).toFixed(1)} %)`;
}

/**
 * Following a set across the season (docs/web-app.md "Squad views"): a
 * template or a rep length, and every time each athlete or crew rowed it.
 */
export default async function SetHistoryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const params = await searchParams;
  const db = getDb();
  const [choices, athletes] = await Promise.all([readSetChoices(db, user.id), listAccessibleAthletes(db, user.id)]);
  // Without a choice: the first template the person's trainings used, so the page opens on something.
  const choice = parseSetChoice(one(params.set)) ?? (choices.templates[0] ? { templateId: choices.templates[0].id } : null);
  const athlete = one(params.athlete);
  const from = one(params.from);
  const to = one(params.to);
  const filters = {
    athleteId: athlete && ID.test(athlete) ? Number(athlete) : undefined,
    from: from && DAY.test(from) ? from : undefined,
    to: to && DAY.test(to) ? to : undefined,
  };
  const history = choice ? await readSetHistory(db, user.id, choice, filters) : null;
  const chosen = choice ? setChoiceKey(choice) : "";
  const colourOf = new Map(history?.series.map((s, k) => [s.crewKey, SERIES_COLOURS[k % SERIES_COLOURS.length]]));
  return (
    <>
      <p>
        <Link href="/trainings">← Trainings</Link>
      </p>
      <h1>Set history</h1>
      <p className="muted">
        Every time each athlete or crew rowed a set: the pace and rate of each rep, the set&apos;s average and its fade (the last rep
        against the first).
      </p>
      <SetChoiceForm choices={choices} athletes={athletes} chosen={chosen} filters={filters} />
      {!history ? (
        <p className="card empty">No trainings with a template yet: upload a training against a workout template to follow its sets.</p>
      ) : history.entries.length === 0 ? (
        <p className="card empty">Nobody has rowed this set in the chosen period.</p>
      ) : (
        <>
          <SetHistoryChart
            series={history.series.map((s) => ({
              key: s.crewKey,
              name: s.crewName,
              colour: colourOf.get(s.crewKey)!,
              points: s.entries.map((e) => ({ t: Date.parse(`${e.date}T12:00:00Z`), pace: e.avgPace500S ?? 0 })),
            }))}
            summary={history.series
              .map((s) => {
                const first = s.entries[0];
                const last = s.entries[s.entries.length - 1];
                return `${s.crewName}: ${s.entries.length} time${s.entries.length === 1 ? "" : "s"}, ${formatPace500(first.avgSpeedMS)} on ${first.date} to ${formatPace500(last.avgSpeedMS)} on ${last.date}`;
              })
              .join("; ")}
          />
          <HistoryTable entries={history.entries} colourOf={colourOf} />
        </>
      )}
    </>
  );
}

function SetChoiceForm({
  choices,
  athletes,
  chosen,
  filters,
}: {
  choices: SetChoices;
  athletes: { id: number; name: string; surname: string }[];
  chosen: string;
  filters: { athleteId?: number; from?: string; to?: string };
}) {
  return (
    <form method="get" action="/trainings/history" className="card log-filters" role="search" aria-label="Choose a set">
      <div className="row">
        <div className="field">
          <label htmlFor="history-set">Set</label>
          <select id="history-set" name="set" defaultValue={chosen}>
            {choices.templates.length ? (
              <optgroup label="Templates">
                {choices.templates.map((t) => (
                  <option key={t.id} value={`t${t.id}`}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {choices.repLengths.length ? (
              <optgroup label="Any rep of">
                {choices.repLengths.map((r) => (
                  <option key={r.key} value={r.key}>
                    {r.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-athlete">Athlete</label>
          <select id="history-athlete" name="athlete" defaultValue={filters.athleteId ?? ""}>
            <option value="">All</option>
            {athletes.map((a) => (
              <option key={a.id} value={a.id}>
                {`${a.name} ${a.surname}`.trim()}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor="history-from">From</label>
          <input id="history-from" name="from" type="date" defaultValue={filters.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="history-to">To</label>
          <input id="history-to" name="to" type="date" defaultValue={filters.to ?? ""} />
        </div>
      </div>
      <div className="row">
        <button type="submit">Show</button>
      </div>
    </form>
  );
}

/** Every time, newest first: a row per training with its reps, average and fade. */
function HistoryTable({ entries, colourOf }: { entries: HistoryEntry[]; colourOf: Map<string, string> }) {
  return (
    <>
      <h2 id="history-heading">Every time</h2>
      <div className="table-scroll table-card" tabIndex={0} role="region" aria-labelledby="history-heading">
        <table aria-labelledby="history-heading" data-testid="set-history">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Paddler</th>
              <th scope="col">Reps: pace /500 m · rate</th>
              <th scope="col" className="num">
                Average
              </th>
              <th scope="col" className="num">
                Fade
              </th>
            </tr>
          </thead>
          <tbody>
            {[...entries].reverse().map((e) => (
              <tr key={e.trainingId}>
                <td>
                  <Link href={`/trainings/${e.trainingId}`}>{e.date}</Link>
                </td>
                <th scope="row">
                  <span className="compare-swatch" style={{ background: colourOf.get(e.crewKey) }} aria-hidden="true" /> {e.crewName}{" "}
                  <span className="muted">{e.boatClass}</span>
                </th>
                <td>
                  <ol className="rep-list">
                    {e.reps.map((r) => (
                      <li key={r.workNumber} title={`${r.distanceM} m in ${formatDuration(r.durationMs)}`}>
                        <span className="muted">{r.workNumber}.</span> {formatPace500(r.speedMS)} · {formatRate(r.rateSpm)}
                      </li>
                    ))}
                  </ol>
                </td>
                <td className="num">
                  {formatPace500(e.avgSpeedMS)}
                  <br />
                  <span className="muted">{formatRate(e.avgRateSpm)} spm</span>
                </td>
                <td className="num">{fadeText(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
