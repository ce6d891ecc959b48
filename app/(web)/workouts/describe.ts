import type { TemplateTotals, WorkoutStep } from "@/server/workouts/template";

/** "500 m", "2 min", "1 min 30 s": a step's length as a coach says it. */
export function stepLength(step: WorkoutStep): string {
  if (step.distance_m !== undefined) return `${step.distance_m} m`;
  const s = step.duration_s ?? 0;
  const minutes = Math.floor(s / 60);
  const seconds = Math.round(s % 60);
  if (!minutes) return `${seconds} s`;
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** "Work 500 m at 90 spm, 1:45 /500 m, zone 4". */
export function describeStep(step: WorkoutStep): string {
  const targets: string[] = [];
  if (step.targets?.rate_spm !== undefined) targets.push(`${step.targets.rate_spm} spm`);
  if (step.targets?.pace_s_per_500m !== undefined) {
    const p = step.targets.pace_s_per_500m;
    targets.push(`${Math.floor(p / 60)}:${String(Math.round(p % 60)).padStart(2, "0")} /500 m`);
  }
  if (step.targets?.zone !== undefined) targets.push(`zone ${step.targets.zone}`);
  return `${step.kind === "work" ? "Work" : "Rest"} ${stepLength(step)}${targets.length ? ` at ${targets.join(", ")}` : ""}`;
}

/** "6 sets · 3000 m and 4 min of work". */
export function describeTotals(totals: TemplateTotals): string {
  const work = [
    totals.work_distance_m ? `${totals.work_distance_m} m` : null,
    totals.work_duration_s ? stepLength({ kind: "work", duration_s: totals.work_duration_s }) : null,
  ]
    .filter(Boolean)
    .join(" and ");
  return `${totals.set_count} ${totals.set_count === 1 ? "set" : "sets"} · ${work || "no"} work`;
}
