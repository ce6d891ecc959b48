import Link from "next/link";
import { loadOr404 } from "@/app/_lib/params";
import { formatDuration, formatPace500, formatSpeed } from "@/app/_lib/format";
import { averageSpeedMS } from "@/server/results/figures";
import { FilterToggle } from "./filter-toggle";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { getDb } from "@/server/db/client";
import { listReferenceData } from "@/server/reference/reference";
import { readLogPage, type LogQuery } from "@/server/sessions/session-log";
import { LogCalendar } from "./log-calendar";
import { LogWeeks } from "./log-weeks";
import { listAccessibleTracks } from "@/server/tracks/tracks";

/**
 * The sessions log (home page, and an athlete's page pre-filtered): filters
 * in a GET form, so they live in the URL (shareable, back button works),
 * keyset pages, and a week view with weekly volume per athlete.
 * `basePath` is where the form and links point; `fixed` are filters the
 * page sets itself (the athlete on an athlete page), kept out of the form.
 */
export async function SessionLog({
  userId,
  query,
  basePath,
  fixed = {},
}: {
  userId: number;
  query: LogQuery;
  basePath: string;
  fixed?: Partial<Record<"athlete", number>>;
}) {
  const db = getDb();
  const q: LogQuery = { ...query, ...fixed };
  const [athletes, tracks, reference] = await Promise.all([
    listAccessibleAthletes(db, userId),
    listAccessibleTracks(db, userId),
    listReferenceData(db),
  ]);
  const activeFilters = FILTER_KEYS.filter((k) => !(k in fixed) && q[k] !== undefined).length;
  const filtered = activeFilters > 0;
  const href = (changes: Partial<Record<keyof LogQuery, string | undefined>>) =>
    `${basePath}${toSearch({ ...asStrings(query), ...changes }, fixed)}`;
  return (
    <>
      <FilterToggle active={activeFilters}>
        <LogFilters
          q={q}
          fixed={fixed}
          basePath={basePath}
          athletes={athletes.map((a) => ({ id: a.id, label: `${a.name} ${a.surname}` }))}
          tracks={tracks.map((t) => ({ id: t.id, label: t.name }))}
          boats={reference.vessels.map((v) => ({ id: v.id, label: v.type }))}
        />
      </FilterToggle>
      <nav aria-label="Log view" className="row log-views">
        <Link href={href({ view: undefined, after: undefined })} aria-current={q.view === "list" ? "page" : undefined}>
          List
        </Link>
        <Link href={href({ view: "week", after: undefined })} aria-current={q.view === "week" ? "page" : undefined}>
          Weeks
        </Link>
        <Link href={href({ view: "calendar", after: undefined })} aria-current={q.view === "calendar" ? "page" : undefined}>
          Calendar
        </Link>
        {filtered ? (
          <Link href={`${basePath}${toSearch({ view: q.view === "list" ? undefined : q.view }, fixed)}`}>Clear filters</Link>
        ) : null}
      </nav>
      {q.view === "week" ? (
        <LogWeeks userId={userId} q={q} />
      ) : q.view === "calendar" ? (
        <LogCalendar userId={userId} q={q} monthHref={(month) => href({ month, after: undefined })} />
      ) : (
        <ListView userId={userId} q={q} filtered={filtered} href={href} />
      )}
    </>
  );
}

const FILTER_KEYS = ["athlete", "boat", "track", "distance", "from", "to", "competition", "important"] as const;

type Option = { id: number; label: string };

function LogFilters({
  q,
  fixed,
  basePath,
  athletes,
  tracks,
  boats,
}: {
  q: LogQuery;
  fixed: Partial<Record<"athlete", number>>;
  basePath: string;
  athletes: Option[];
  tracks: Option[];
  boats: Option[];
}) {
  const select = (name: keyof LogQuery, label: string, options: Option[], value: number | undefined) => (
    <div className="field">
      <label htmlFor={`log-${name}`}>{label}</label>
      <select id={`log-${name}`} name={name} defaultValue={value ?? ""}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form method="get" action={basePath} className="card log-filters" role="search" aria-label="Filter sessions">
      {q.view !== "list" ? <input type="hidden" name="view" value={q.view} /> : null}
      {q.view === "calendar" && q.month ? <input type="hidden" name="month" value={q.month} /> : null}
      <div className="row">
        {fixed.athlete === undefined ? select("athlete", "Athlete", athletes, q.athlete) : null}
        {select("boat", "Boat class", boats, q.boat)}
        {select("track", "Track", tracks, q.track)}
        <div className="field">
          <label htmlFor="log-distance">Distance (m)</label>
          <input id="log-distance" name="distance" type="number" min={1} step={1} defaultValue={q.distance ?? ""} />
        </div>
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor="log-from">From</label>
          <input id="log-from" name="from" type="date" defaultValue={q.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="log-to">To</label>
          <input id="log-to" name="to" type="date" defaultValue={q.to ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="log-competition">Competition</label>
          <input id="log-competition" name="competition" type="text" maxLength={64} defaultValue={q.competition ?? ""} />
        </div>
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor="log-sort">Sort by</label>
          <select id="log-sort" name="sort" defaultValue={q.sort}>
            <option value="date">Date</option>
            <option value="distance">Distance</option>
            <option value="time">Time</option>
            <option value="speed">Speed</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-order">Order</label>
          <select id="log-order" name="order" defaultValue={q.order}>
            <option value="desc">Highest / newest first</option>
            <option value="asc">Lowest / oldest first</option>
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" name="important" value="1" defaultChecked={q.important === "1"} /> Important only
        </label>
        <button type="submit">Show sessions</button>
      </div>
    </form>
  );
}

async function ListView({
  userId,
  q,
  filtered,
  href,
}: {
  userId: number;
  q: LogQuery;
  filtered: boolean;
  href: (c: Partial<Record<keyof LogQuery, string | undefined>>) => string;
}) {
  // An athlete outside the user's reach is the same 404 as an absent one.
  const { rows, nextCursor } = await loadOr404(() => readLogPage(getDb(), userId, q));
  if (!rows.length) {
    if (q.after) {
      return (
        <div className="card empty">
          <h2>No more sessions</h2>
          <p>
            <Link href={href({ after: undefined })}>Back to the first page</Link>
          </p>
        </div>
      );
    }
    return filtered ? (
      <div className="card empty" data-testid="log-no-match">
        <h2>No sessions match these filters</h2>
        <p>Widen the date range or clear a filter to see more.</p>
      </div>
    ) : (
      <div className="card empty" data-testid="log-empty">
        <h2>No sessions yet</h2>
        <p>
          Sessions appear here once a <code>.svc</code> file from your sensor unit has been uploaded, through the{" "}
          <Link href="/upload">web upload</Link> or the results API with a key pair from the <Link href="/developer">developer portal</Link>
          .
        </p>
        <p className="muted">
          An upload needs a <Link href="/tracks/new">track</Link> and the crew&apos;s <Link href="/athletes/new">athletes</Link>: set them
          up first.
        </p>
      </div>
    );
  }
  // The rows' checkboxes send ?ids=…&ids=… to the compare view (2 to 9; it says so otherwise); no script needed.
  return (
    <form method="get" action="/sessions/compare" aria-label="Compare sessions">
      <div className="table-scroll table-card log-table">
        <table aria-label="Sessions" data-testid="session-log">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Compare</span>
              </th>
              <th scope="col">Date</th>
              <th scope="col">Boat</th>
              <th scope="col">Crew</th>
              <th scope="col" className="wide-only">
                Track
              </th>
              <th scope="col" className="num">
                Distance
              </th>
              <th scope="col" className="num">
                Time
              </th>
              <th scope="col" className="num">
                Pace /500 m
              </th>
              <th scope="col" className="wide-only">
                Notes
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>
                  <input
                    type="checkbox"
                    name="ids"
                    value={s.id}
                    aria-label={`Compare the session of ${s.date} ${s.timeOfDay.slice(0, 5)}, ${s.boatClass} ${s.distanceM} m`}
                  />
                </td>
                <td className="log-date">
                  <Link href={`/sessions/${s.id}`}>{s.date}</Link> <span className="muted">{s.timeOfDay.slice(0, 5)}</span>
                </td>
                <td>{s.boatClass}</td>
                <td>{s.crew.join(", ")}</td>
                <td className="wide-only">{s.trackName}</td>
                <td className="num">{s.distanceM} m</td>
                <td className="num">{formatDuration(s.durationMs)}</td>
                <td className="num">
                  {formatPace500(averageSpeedMS(s.distanceM, s.durationMs))}{" "}
                  <span className="muted">({formatSpeed(averageSpeedMS(s.distanceM, s.durationMs))} m/s)</span>
                </td>
                <td className="wide-only">
                  {s.important ? <span className="badge warn">Important</span> : null} {s.competition || s.description}
                  {s.status !== "processed" ? <span className="badge">{s.status}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* A phone shows the same rows as cards (CSS swaps them at 700 px): the numbers a paddler reads first, no sideways scroll. */}
      <ul className="log-cards" aria-label="Sessions" data-testid="session-cards">
        {rows.map((s) => {
          const speed = (s.distanceM / Math.max(s.durationMs, 1)) * 1000;
          return (
            <li key={s.id} className="log-card" data-session-id={s.id}>
              <div className="log-card-head">
                <Link href={`/sessions/${s.id}`}>
                  {s.date} <span className="muted">{s.timeOfDay.slice(0, 5)}</span>
                </Link>
                <span className="log-card-boat">{s.boatClass}</span>
                <input
                  type="checkbox"
                  name="ids"
                  value={s.id}
                  aria-label={`Compare the session of ${s.date} ${s.timeOfDay.slice(0, 5)}, ${s.boatClass} ${s.distanceM} m`}
                />
              </div>
              <div className="log-card-crew">{s.crew.join(", ")}</div>
              <dl className="log-card-figures">
                <div>
                  <dt>Distance</dt>
                  <dd data-figure="distance">{s.distanceM} m</dd>
                </div>
                <div>
                  <dt>Time</dt>
                  <dd data-figure="time">{formatDuration(s.durationMs)}</dd>
                </div>
                <div>
                  <dt>Pace /500 m</dt>
                  <dd data-figure="pace">{formatPace500(speed)}</dd>
                </div>
              </dl>
              {s.important || s.status !== "processed" ? (
                <div>
                  {s.important ? <span className="badge warn">Important</span> : null}{" "}
                  {s.status !== "processed" ? <span className="badge">{s.status}</span> : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="row">
        <button type="submit" className="secondary">
          Compare selected
        </button>
        <span className="muted">Tick 2 to 9 sessions.</span>
      </div>
      <nav aria-label="Log pages" className="row pager">
        {q.after ? <Link href={href({ after: undefined })}>First page</Link> : null}
        {nextCursor ? (
          <Link href={href({ after: nextCursor })} rel="next">
            Next page
          </Link>
        ) : (
          <span className="muted" data-testid="log-last-page">
            End of the log
          </span>
        )}
      </nav>
    </form>
  );
}

function asStrings(q: LogQuery): Partial<Record<keyof LogQuery, string | undefined>> {
  return Object.fromEntries(Object.entries(q).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
}

/** The query string of a log URL, without defaults and without what the page fixes itself. */
function toSearch(values: Partial<Record<keyof LogQuery, string | undefined>>, fixed: Partial<Record<string, number>>): string {
  const defaults: Record<string, string> = { sort: "date", order: "desc", view: "list" };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== "" && defaults[k] !== v && !(k in fixed)) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : "";
}
