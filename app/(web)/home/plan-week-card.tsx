import Link from "next/link";
import { getDb } from "@/server/db/client";
import { readPlanWeek } from "@/server/plans/plan-reads";
import { MarkBadge } from "../plans/mark-badge";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** The home card lists a week: a plan's notes in their first words, all of them on /plans. */
const NOTES_SHOWN = 80;
function shortNotes(notes: string): string {
  const line = notes.replace(/\s+/g, " ");
  return line.length > NOTES_SHOWN ? `${line.slice(0, NOTES_SHOWN - 1).trimEnd()}…` : line;
}

/** Home's card of this week's planned workouts and their compliance (docs/plans.md), linking to /plans. */
export async function PlanWeekCard({ userId }: { userId: number }) {
  const plans = await readPlanWeek(getDb(), userId, new Date().toISOString().slice(0, 10));
  const planned = plans.days.flatMap((d) => d.plans);
  return (
    <section aria-labelledby="plan-week-heading" className="card" data-testid="home-plans">
      <h2 id="plan-week-heading">This week&apos;s plan</h2>
      {planned.length ? (
        <>
          <p>
            {plural(planned.length, "planned workout")}
            {plans.compliancePct !== null ? (
              <>
                {" "}
                · compliance <strong>{plans.compliancePct} %</strong> over {plans.due} due
              </>
            ) : (
              " · none due yet"
            )}
          </p>
          <ul className="plain-list">
            {planned.slice(0, 7).map((p) => (
              <li key={p.id}>
                {p.date} · {p.title}{" "}
                <span className="muted">
                  ({p.work}, {p.forWhom})
                </span>{" "}
                <MarkBadge mark={p.mark} />
                {p.notes ? <span className="muted"> · {shortNotes(p.notes)}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">Nothing planned this week.</p>
      )}
      <p>
        <Link href="/plans">All plans</Link>
      </p>
    </section>
  );
}
