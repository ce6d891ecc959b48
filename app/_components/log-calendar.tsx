import Link from "next/link";
import { formatDuration } from "@/app/_lib/format";
import { getDb } from "@/server/db/client";
import { readCalendar } from "@/server/sessions/calendar";
import type { LogQuery } from "@/server/sessions/session-log";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const km = (m: number) => (m >= 1000 ? `${(m / 1000).toFixed(1)} km` : `${m} m`);

/**
 * "4 × 250 m" when the sets' distances are equal (to 10 m), "5 × 45 s" when
 * their times are (to 5 s: a timed set), else each set's distance.
 */
function workSetsLabel(sets: { distanceM: number; durationMs: number }[]): string {
  if (!sets.length) return "no work sets";
  const metres = sets.map((s) => Math.round(s.distanceM / 10) * 10);
  if (metres.every((d) => d === metres[0])) return `${sets.length} × ${metres[0]} m`;
  const seconds = sets.map((s) => Math.round(s.durationMs / 5000) * 5);
  if (seconds.every((t) => t === seconds[0])) return `${sets.length} × ${seconds[0]} s`;
  return metres.map((d) => `${d} m`).join(" + ");
}

/**
 * The log's calendar view (docs/web-app.md "Calendar"): a month of days,
 * each with its distance, its sessions and its trainings' work sets. A
 * Monday-first grid on wide screens; on a phone, the days with something on
 * them as a list (CSS decides), so nothing scrolls sideways.
 */
export async function LogCalendar({ userId, q, monthHref }: { userId: number; q: LogQuery; monthHref: (month: string) => string }) {
  const month = await readCalendar(getDb(), userId, q);
  const lead = (new Date(`${month.days[0].date}T00:00:00Z`).getUTCDay() + 6) % 7;
  const title = new Date(`${month.month}-01T00:00:00Z`).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
  const total = month.days.reduce((s, d) => s + d.distanceM, 0);
  return (
    <section aria-labelledby="calendar-heading" data-testid="calendar">
      <div className="row calendar-nav">
        <Link href={monthHref(month.previous)} aria-label="Previous month">
          ←
        </Link>
        <h2 id="calendar-heading">{title}</h2>
        <Link href={monthHref(month.next)} aria-label="Next month">
          →
        </Link>
        <span className="muted">{km(total)} this month</span>
      </div>
      <ol className="calendar" aria-labelledby="calendar-heading">
        {WEEKDAYS.map((d) => (
          <li key={d} className="calendar-weekday" aria-hidden="true">
            {d}
          </li>
        ))}
        {Array.from({ length: lead }, (_, i) => (
          <li key={`lead${i}`} className="calendar-pad" aria-hidden="true" />
        ))}
        {month.days.map((day) => {
          const empty = !day.sessions.length && !day.trainings.length;
          const weekday = WEEKDAYS[(new Date(`${day.date}T00:00:00Z`).getUTCDay() + 6) % 7];
          return (
            <li
              key={day.date}
              className={empty ? "calendar-day empty-day" : "calendar-day"}
              data-date={day.date}
              data-testid="calendar-day"
            >
              <div className="calendar-date">
                <span>
                  <span className="calendar-weekday-inline">{weekday} </span>
                  {Number(day.date.slice(8))}
                </span>
                {empty ? null : <strong data-testid="day-distance">{km(day.distanceM)}</strong>}
              </div>
              <ul>
                {day.sessions.map((s) => (
                  <li key={`s${s.id}`}>
                    <Link href={`/sessions/${s.id}`} title={`${s.crew} · ${formatDuration(s.durationMs)}`}>
                      {s.boatClass} {s.distanceM} m
                    </Link>{" "}
                    <span className="muted">{s.crew.split(",")[0]}</span>
                  </li>
                ))}
                {day.trainings.map((t) => (
                  <li key={`t${t.id}`} className="calendar-training">
                    <Link href={`/trainings/${t.id}`}>{t.title || "Training"}</Link>{" "}
                    <span className="muted">{workSetsLabel(t.workSets)}</span>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
