"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, SelectField, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { DEFAULT_SPEED_ZONES } from "@/server/load/zones";
import type { PlanBlock } from "@/server/plans/plan-document";
import { PLAN_NOTES_MAX, PLAN_TITLE_MAX } from "@/server/plans/plan-limits";
import type { PlanEditValues } from "@/server/plans/plan-reads";

type Option = { id: number; name: string };
type BlockRow = { reps: string; unit: "m" | "s"; amount: string; rest: string; pace: string; rate: string; zone: string };
const BOATS = ["K2", "K4", "C2", "C4"] as const;
const NEW_BLOCK: BlockRow = { reps: "4", unit: "m", amount: "500", rest: "120", pace: "", rate: "", zone: "" };
const ZONE_OPTIONS = [
  { value: "", label: "None" },
  ...DEFAULT_SPEED_ZONES.map((z) => ({ value: String(z.zone), label: `${z.zone} · ${z.name}` })),
];
const optionsOf = (list: Option[]) => list.map((o) => ({ value: String(o.id), label: o.name }));

/** "1:50" or "110" to seconds; "" to undefined. */
function paceSeconds(text: string): number | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const m = /^(\d+):(\d{1,2}(?:\.\d)?)$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number(t);
}
/** Seconds back to the form's "m:ss" (paceSeconds' inverse). */
const paceText = (s: number) => {
  const sec = s % 60;
  return `${Math.floor(s / 60)}:${Number.isInteger(sec) ? String(sec).padStart(2, "0") : sec.toFixed(1).padStart(4, "0")}`;
};
const num = (text: string) => (text.trim() ? Number(text) : undefined);

/** A stored block as the form's row (editing a plan). */
const rowOf = (b: PlanBlock): BlockRow => ({
  reps: String(b.reps),
  unit: b.distance_m !== undefined ? "m" : "s",
  amount: String(b.distance_m ?? b.duration_s),
  rest: String(b.rest_s ?? 0),
  pace: b.targets?.pace_s_per_500m !== undefined ? paceText(b.targets.pace_s_per_500m) : "",
  rate: b.targets?.rate_spm !== undefined ? String(b.targets.rate_spm) : "",
  zone: b.targets?.zone !== undefined ? String(b.targets.zone) : "",
});
const minutesText = (s: number | null | undefined) => (s ? String(s / 60) : "");

/**
 * A coach plans a workout (docs/plans.md): for a day, from one of their
 * templates or written as blocks of reps (distance or time, a rest after each,
 * an optional pace per 500 m, stroke rate or zone), for an athlete, a crew or
 * a team, with optional notes for the athletes. With `editing` the same form
 * edits that plan (plans.update) and opens prefilled.
 */
export function PlanForm({
  defaultDate,
  templates,
  athletes,
  teams,
  editing,
}: {
  defaultDate: string;
  templates: Option[];
  athletes: Option[];
  teams: Option[];
  editing?: PlanEditValues;
}) {
  const router = useRouter();
  const a = editing?.audience;
  const w = editing?.written;
  // A plan whose steps the form cannot write stays on its template (when it is the coach's).
  const fromTemplate = !!editing && !w && templates.some((t) => t.id === editing.templateId);
  const [date, setDate] = useState(editing?.date ?? defaultDate);
  const [title, setTitle] = useState(editing?.title ?? "");
  const [who, setWho] = useState<"athlete" | "crew" | "team">(a?.kind ?? "athlete");
  const [athleteId, setAthleteId] = useState(String(a?.kind === "athlete" ? a.athleteId : (athletes[0]?.id ?? "")));
  const [boat, setBoat] = useState<(typeof BOATS)[number]>(a?.kind === "crew" ? (a.boatClass as (typeof BOATS)[number]) : "K2");
  const [seats, setSeats] = useState<string[]>(a?.kind === "crew" ? a.seats.map(String) : athletes.slice(0, 4).map((x) => String(x.id)));
  const [teamId, setTeamId] = useState(String(a?.kind === "team" ? a.teamId : (teams[0]?.id ?? "")));
  const [source, setSource] = useState<"written" | "template">(fromTemplate ? "template" : "written");
  const [templateId, setTemplateId] = useState(String(fromTemplate ? editing?.templateId : (templates[0]?.id ?? "")));
  const [warmup, setWarmup] = useState(minutesText(w?.warmupS));
  const [cooldown, setCooldown] = useState(minutesText(w?.cooldownS));
  const [blocks, setBlocks] = useState<BlockRow[]>(w ? w.blocks.map(rowOf) : [NEW_BLOCK]);
  const [notes, setNotes] = useState(editing?.notes ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const seatCount = Number(boat[1]);
  const setBlock = (k: number, patch: Partial<BlockRow>) => setBlocks((bs) => bs.map((b, i) => (i === k ? { ...b, ...patch } : b)));

  const input = () => ({
    date,
    title,
    notes: notes.trim() || null,
    audience:
      who === "athlete"
        ? { kind: "athlete" as const, athleteId: Number(athleteId) }
        : who === "crew"
          ? { kind: "crew" as const, boatClass: boat, seats: seats.slice(0, seatCount).map(Number) }
          : { kind: "team" as const, teamId: Number(teamId) },
    source:
      source === "template"
        ? { kind: "template" as const, templateId: Number(templateId) }
        : {
            kind: "written" as const,
            warmup: num(warmup) ? { duration_s: Math.round(num(warmup)! * 60) } : null,
            cooldown: num(cooldown) ? { duration_s: Math.round(num(cooldown)! * 60) } : null,
            blocks: blocks.map((b) => {
              const targets = { pace_s_per_500m: paceSeconds(b.pace), rate_spm: num(b.rate), zone: num(b.zone) };
              return {
                reps: Number(b.reps),
                ...(b.unit === "m" ? { distance_m: Number(b.amount) } : { duration_s: Number(b.amount) }),
                rest_s: num(b.rest) ?? 0,
                targets: Object.values(targets).some((v) => v !== undefined) ? targets : undefined,
              };
            }),
          },
  });
  const save = useSubmit(
    () => (editing ? trpc.plans.update.mutate({ id: editing.id, ...input() }) : trpc.plans.create.mutate(input())),
    () => {
      if (editing) {
        // Back to the week the plan is now on, out of editing.
        router.push(`/plans?week=${date}`);
      } else setSaved(`Planned for ${date}.`);
      router.refresh();
    },
  );

  if (!athletes.length && !teams.length)
    return <p className="card muted">Add athletes or a team (Club in the menu) to plan workouts for them.</p>;
  const label = editing ? `Edit “${editing.title}”` : "Plan a workout";
  return (
    <details className="card plan-form-card" id="plan-form" open={editing ? true : undefined}>
      <summary>{label}</summary>
      <form className="stack plan-form" onSubmit={save.submit} aria-label={label}>
        <div className="plan-form-row">
          <Field label="Day" name="plan-date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
          <Field
            label="Title (optional)"
            name="plan-title"
            maxLength={PLAN_TITLE_MAX}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
        <fieldset className="plan-form-row">
          <legend>For</legend>
          <SelectField
            label="Who"
            name="plan-who"
            value={who}
            onChange={(e) => setWho(e.target.value as typeof who)}
            options={[
              { value: "athlete", label: "One athlete" },
              { value: "crew", label: "A crew" },
              ...(teams.length ? [{ value: "team", label: "A team" }] : []),
            ]}
          />
          {who === "athlete" ? (
            <SelectField
              label="Athlete"
              name="plan-athlete"
              value={athleteId}
              onChange={(e) => setAthleteId(e.target.value)}
              options={optionsOf(athletes)}
            />
          ) : null}
          {who === "team" ? (
            <SelectField
              label="Team"
              name="plan-team"
              value={teamId}
              onChange={(e) => setTeamId(e.target.value)}
              options={optionsOf(teams)}
            />
          ) : null}
          {who === "crew" ? (
            <>
              <SelectField
                label="Boat"
                name="plan-boat"
                value={boat}
                onChange={(e) => setBoat(e.target.value as typeof boat)}
                options={BOATS.map((b) => ({ value: b, label: b }))}
              />
              {Array.from({ length: seatCount }, (_, k) => (
                <SelectField
                  key={k}
                  label={`Seat ${k + 1}`}
                  name={`plan-seat-${k + 1}`}
                  value={seats[k] ?? ""}
                  onChange={(e) => setSeats((s) => Object.assign([...s], { [k]: e.target.value }))}
                  options={[{ value: "", label: "Choose" }, ...optionsOf(athletes)]}
                />
              ))}
            </>
          ) : null}
        </fieldset>
        <fieldset className="stack">
          <legend>Workout</legend>
          <div className="row">
            <label>
              <input type="radio" name="plan-source" checked={source === "written"} onChange={() => setSource("written")} /> Write it
            </label>
            <label>
              <input
                type="radio"
                name="plan-source"
                checked={source === "template"}
                disabled={!templates.length}
                onChange={() => setSource("template")}
              />{" "}
              From a template{templates.length ? "" : " (none yet)"}
            </label>
          </div>
          {source === "template" ? (
            <SelectField
              label="Template"
              name="plan-template"
              value={templateId}
              onChange={(e) => setTemplateId(e.target.value)}
              options={optionsOf(templates)}
            />
          ) : (
            <>
              <Field
                label="Warm-up (minutes, optional)"
                name="plan-warmup"
                inputMode="decimal"
                value={warmup}
                onChange={(e) => setWarmup(e.target.value)}
              />
              {blocks.map((b, k) => (
                <BlockFields
                  key={k}
                  k={k}
                  block={b}
                  onChange={(patch) => setBlock(k, patch)}
                  onRemove={blocks.length > 1 ? () => setBlocks((bs) => bs.filter((_, i) => i !== k)) : null}
                />
              ))}
              <div className="row">
                <button type="button" className="secondary" onClick={() => setBlocks((bs) => [...bs, { ...NEW_BLOCK }])}>
                  Add reps
                </button>
              </div>
              <Field
                label="Cool-down (minutes, optional)"
                name="plan-cooldown"
                inputMode="decimal"
                value={cooldown}
                onChange={(e) => setCooldown(e.target.value)}
              />
            </>
          )}
        </fieldset>
        <div className="field">
          <label htmlFor="plan-notes">Notes for the athletes (optional)</label>
          <textarea
            id="plan-notes"
            rows={2}
            maxLength={PLAN_NOTES_MAX}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            aria-describedby="plan-notes-hint"
          />
          <p className="hint" id="plan-notes-hint">
            Whoever sees the plan reads them{source === "template" ? "; left empty, the template's notes are kept" : ""}.
          </p>
        </div>
        <FormError message={save.errors.form} />
        {Object.entries(save.errors.fields).length ? (
          <p className="form-error">{Object.values(save.errors.fields).flat().join(" ")}</p>
        ) : null}
        <div className="row">
          <button type="submit" disabled={save.pending}>
            {editing ? "Save changes" : "Plan workout"}
          </button>
          {editing ? (
            <Link className="button secondary" href={`/plans?week=${editing.date}`}>
              Cancel
            </Link>
          ) : null}
          {saved ? <span role="status">{saved}</span> : null}
        </div>
      </form>
    </details>
  );
}

/** One line of reps: how many, each of what, the rest after each and the optional targets. */
function BlockFields({
  k,
  block: b,
  onChange,
  onRemove,
}: {
  k: number;
  block: BlockRow;
  onChange: (patch: Partial<BlockRow>) => void;
  onRemove: (() => void) | null;
}) {
  const id = (what: string) => `block-${k}-${what}`;
  return (
    <fieldset className="plan-block" data-testid="plan-block">
      <legend>Reps {k + 1}</legend>
      <Field label="Reps" name={id("reps")} inputMode="numeric" value={b.reps} onChange={(e) => onChange({ reps: e.target.value })} />
      <Field
        label="Each rep"
        name={id("amount")}
        inputMode="numeric"
        value={b.amount}
        onChange={(e) => onChange({ amount: e.target.value })}
      />
      <SelectField
        label="Unit"
        name={id("unit")}
        value={b.unit}
        onChange={(e) => onChange({ unit: e.target.value as BlockRow["unit"] })}
        options={[
          { value: "m", label: "metres" },
          { value: "s", label: "seconds" },
        ]}
      />
      <Field
        label="Rest after each (s)"
        name={id("rest")}
        inputMode="numeric"
        value={b.rest}
        onChange={(e) => onChange({ rest: e.target.value })}
      />
      <Field label="Pace /500 m (m:ss, optional)" name={id("pace")} value={b.pace} onChange={(e) => onChange({ pace: e.target.value })} />
      <Field
        label="Rate spm (optional)"
        name={id("rate")}
        inputMode="numeric"
        value={b.rate}
        onChange={(e) => onChange({ rate: e.target.value })}
      />
      <SelectField
        label="Zone (optional)"
        name={id("zone")}
        value={b.zone}
        onChange={(e) => onChange({ zone: e.target.value })}
        options={ZONE_OPTIONS}
      />
      {onRemove ? (
        <button type="button" className="secondary" onClick={onRemove}>
          Remove reps {k + 1}
        </button>
      ) : null}
    </fieldset>
  );
}
