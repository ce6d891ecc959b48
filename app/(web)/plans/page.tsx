import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { mondayOfDate, readPlanForEditing, readPlanWeek, type PlanWeek } from "@/server/plans/plan-reads";
import { shiftDate } from "@/server/plans/plans";
import { listAccessibleTeams } from "@/server/teams/teams";
import { managesClub } from "@/server/users/navigation";
import { listOwnTemplates } from "@/server/workouts/templates";
import { MarkBadge } from "./mark-badge";
import { PlanActions, WeekActions } from "./plan-actions";
import { PlanForm } from "./plan-form";
import { PlanNotes } from "./plan-notes";

export const metadata: Metadata = { title: "Plans" };

const WEEKDAY = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/**
 * Planned workouts week by week (docs/plans.md): per day what was planned and
 * what was done side by side with each workout's compliance mark, and the
 * week's compliance. An athlete reads their own plans, a coach their teams';
 * a coach plans from here (server/plans/plan-reads.ts).
 */
export default async function PlansPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser("/plans");
  const params = await searchParams;
  const today = new Date().toISOString().slice(0, 10);
  const asked = typeof params.week === "string" && /^\d{4}-\d{2}-\d{2}$/.test(params.week) && !Number.isNaN(Date.parse(params.week));
  const db = getDb();
  const week = await readPlanWeek(db, user.id, asked ? (params.week as string) : today, today);
  const thisMonday = mondayOfDate(today);
  const coach = managesClub(user);
  const [templates, athletes, teams] = coach
    ? await Promise.all([listOwnTemplates(db, user.id), listAccessibleAthletes(db, user.id), listAccessibleTeams(db, user.id)])
    : [[], [], []];
  // ?edit=<plan id> opens the form on that plan (the Edit of a plan card); not theirs to change: the form plans a new one.
  const editId = typeof params.edit === "string" && /^\d{1,9}$/.test(params.edit) ? Number(params.edit) : null;
  const editing = coach && editId ? await readPlanForEditing(db, user.id, editId) : null;
  const anyPlan = week.days.some((d) => d.plans.length);
  const anyDone = week.days.some((d) => d.done.length);
  return (
    <>
      <div className="page-header">
        <h1>Plans</h1>
        <nav aria-label="Weeks" className="row">
          <Link className="button secondary" href={`/plans?week=${shiftDate(week.weekStart, -7)}`}>
            Previous week
          </Link>
          <Link className="button secondary" href="/plans" aria-current={week.weekStart === thisMonday ? "page" : undefined}>
            This week
          </Link>
          <Link className="button secondary" href={`/plans?week=${shiftDate(week.weekStart, 7)}`}>
            Next week
          </Link>
        </nav>
      </div>
      <p data-testid="plan-week-summary">
        Week of {week.weekStart} to {shiftDate(week.weekStart, 6)}:{" "}
        {week.compliancePct === null ? (
          <span>no planned workout due yet.</span>
        ) : (
          <span>
            compliance <strong data-testid="plan-compliance">{week.compliancePct} %</strong> over {week.due} planned workout
            {week.due === 1 ? "" : "s"} due, {week.done} done.
          </span>
        )}
      </p>
      {coach ? (
        <>
          <PlanForm
            key={editing?.id ?? "new"}
            editing={editing ?? undefined}
            defaultDate={week.weekStart === thisMonday ? today : week.weekStart}
            templates={templates.map((t) => ({ id: t.id, name: t.name }))}
            athletes={athletes.map((a) => ({ id: a.id, name: `${a.name} ${a.surname}`.trim() }))}
            teams={teams.map((t) => ({ id: t.id, name: t.name }))}
          />
          {anyPlan ? <WeekActions weekStart={week.weekStart} /> : null}
        </>
      ) : null}
      {!anyPlan && !anyDone ? (
        <p className="card empty" data-testid="plans-empty">
          Nothing planned and nothing done this week.{" "}
          {coach ? "Plan a workout with the form above." : "Your coach's plans for you will show here."}
        </p>
      ) : null}
      <ol className="plan-week" aria-label={`Week of ${week.weekStart}`}>
        {week.days.map((day, k) => (
          <PlanDay key={day.date} day={day} weekday={WEEKDAY[k]} today={week.today} />
        ))}
      </ol>
    </>
  );
}

/** One day: what was planned and what was done, side by side. */
function PlanDay({ day, weekday, today }: { day: PlanWeek["days"][number]; weekday: string; today: string }) {
  return (
    <li className={`plan-day card${day.date === today ? " plan-today" : ""}`} data-testid={`plan-day-${day.date}`}>
      <h2 className="plan-day-title">
        {weekday} <span className="muted">{day.date}</span>
      </h2>
      <div className="plan-day-columns">
        <div>
          <h3 className="plan-col-title">Planned</h3>
          {day.plans.length ? (
            <ul className="plan-list">
              {day.plans.map((p) => (
                <li key={p.id} className="plan-card" data-testid="plan-card">
                  <p>
                    <strong>{p.title}</strong> <MarkBadge mark={p.mark} />
                  </p>
                  <p className="muted">{p.forWhom}</p>
                  <p>
                    {p.warmup ? `Warm-up ${p.warmup} · ` : ""}
                    {p.work}
                    {p.cooldown ? ` · cool-down ${p.cooldown}` : ""}
                  </p>
                  {p.targets ? <p data-testid="plan-targets">Targets: {p.targets}</p> : null}
                  <PlanNotes notes={p.notes} testId="plan-notes" />
                  {p.units.length > 1 ? (
                    <ul className="plan-units">
                      {p.units.map((u) => (
                        <li key={u.athleteId}>
                          {u.trainingId ? <Link href={`/trainings/${u.trainingId}`}>{u.name}</Link> : u.name} <MarkBadge mark={u.mark} />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {p.editable ? <PlanActions id={p.id} title={p.title} date={p.date} /> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nothing planned.</p>
          )}
        </div>
        <div>
          <h3 className="plan-col-title">Done</h3>
          {day.done.length ? (
            <ul className="plan-list">
              {day.done.map((d) => (
                <li key={d.id} className="plan-card" data-testid="done-card">
                  <p>
                    <Link href={`/trainings/${d.id}`}>{d.title}</Link>{" "}
                    {d.planId ? <MarkBadge mark={d.mark} /> : <span className="badge">unplanned</span>}
                  </p>
                  <p className="muted">
                    {d.who}
                    {d.workSetCount !== null ? ` · ${d.workSetCount} work set${d.workSetCount === 1 ? "" : "s"}` : ""}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nothing done.</p>
          )}
        </div>
      </div>
    </li>
  );
}
