import Link from "next/link";
import { formatDuration } from "@/app/_lib/format";
import { spanLabel, zoneLabel } from "@/server/plans/plan-document";
import type { TrainingPlanView } from "@/server/plans/plan-reads";
import { MarkBadge } from "../../plans/mark-badge";
import { PlanNotes } from "../../plans/plan-notes";
import { PlanLinkButtons } from "./plan-link-buttons";

const clock = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;

/**
 * The training's plan (docs/plans.md): planned against done rep by rep with
 * each rep's mark and the workout's, and Unlink / Re-link for who may.
 */
export function TrainingPlan({ trainingId, plan }: { trainingId: number; plan: TrainingPlanView }) {
  const c = plan.link?.comparison ?? null;
  return (
    <section className="card" aria-labelledby="plan-heading" data-testid="training-plan">
      <h2 id="plan-heading">Plan</h2>
      {plan.link ? (
        <p>
          <Link href={`/plans?week=${plan.link.date}`}>{plan.link.title}</Link> planned for {plan.link.date}
          {plan.link.byPerson ? " (linked by hand)" : ""}:{" "}
          {c ? (
            <>
              <MarkBadge mark={c.mark} /> {Math.round(c.score * 100)} % · {c.done} of {c.planned} reps done
              {c.extra ? `, ${c.extra} extra` : ""}
            </>
          ) : (
            "not compared."
          )}
        </p>
      ) : (
        <p className="muted">
          {plan.unlinked ? "Unlinked by hand: processing again leaves it unlinked." : "No planned workout matches this training."}
        </p>
      )}
      <PlanNotes notes={plan.link?.notes} testId="training-plan-notes" />
      {c?.reps.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Planned against done, scrolls sideways">
          <table aria-label="Planned against done" data-testid="plan-reps" className="plan-reps">
            <thead>
              <tr>
                <th scope="col">Rep</th>
                <th scope="col">Planned</th>
                <th scope="col" className="num">
                  Done
                </th>
                <th scope="col" className="num">
                  Pace /500 m
                </th>
                <th scope="col" className="num">
                  Rate
                </th>
                <th scope="col">Mark</th>
              </tr>
            </thead>
            <tbody>
              {c.reps.map((r, k) => (
                <tr key={k} data-testid="plan-rep">
                  <th scope="row">{r.rep ?? "extra"}</th>
                  <td>
                    {r.planned ? spanLabel(r.planned) : "—"}
                    {r.planned?.targets?.pace_s_per_500m ? ` @ ${clock(r.planned.targets.pace_s_per_500m)}` : ""}
                    {r.planned?.targets?.rate_spm ? ` · ${r.planned.targets.rate_spm} spm` : ""}
                    {r.planned?.targets?.zone ? ` · ${zoneLabel(r.planned.targets.zone)}` : ""}
                  </td>
                  <td className="num">
                    {r.actual ? `${Math.round(r.actual.distanceM)} m in ${formatDuration(r.actual.durationMs)}` : "—"}
                  </td>
                  <td className="num">{r.actual?.paceS500 ? clock(r.actual.paceS500) : "—"}</td>
                  <td className="num">{r.actual?.rateSpm ? Math.round(r.actual.rateSpm) : "—"}</td>
                  <td>
                    <MarkBadge mark={r.mark} />
                    {r.notes.length ? <span className="muted"> {r.notes.join("; ")}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <PlanLinkButtons
        trainingId={trainingId}
        canUnlink={plan.canUnlink}
        canRelink={plan.unlinked || Boolean(plan.link?.byPerson)}
        choices={plan.choices.filter((c) => c.id !== plan.link?.planId)}
      />
    </section>
  );
}
