"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

type Option = { id: number; name: string };
type BlockRow = { reps: string; unit: "m" | "s"; amount: string; rest: string; pace: string; rate: string };
const BOATS = ["K2", "K4", "C2", "C4"] as const;
const NEW_BLOCK: BlockRow = { reps: "4", unit: "m", amount: "500", rest: "120", pace: "", rate: "" };

/** "1:50" or "110" to seconds; "" to undefined. */
function paceSeconds(text: string): number | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const m = /^(\d+):(\d{1,2}(?:\.\d)?)$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number(t);
}
const num = (text: string) => (text.trim() ? Number(text) : undefined);

/**
 * A coach plans a workout (docs/plans.md): for a day, from one of their
 * templates or written as blocks of reps (distance or time, a rest after each,
 * an optional pace per 500 m or stroke rate), for an athlete, a crew or a team.
 */
export function PlanForm({
  defaultDate,
  templates,
  athletes,
  teams,
}: {
  defaultDate: string;
  templates: Option[];
  athletes: Option[];
  teams: Option[];
}) {
  const router = useRouter();
  const [date, setDate] = useState(defaultDate);
  const [title, setTitle] = useState("");
  const [who, setWho] = useState<"athlete" | "crew" | "team">("athlete");
  const [athleteId, setAthleteId] = useState(String(athletes[0]?.id ?? ""));
  const [boat, setBoat] = useState<(typeof BOATS)[number]>("K2");
  const [seats, setSeats] = useState<string[]>(athletes.slice(0, 4).map((a) => String(a.id)));
  const [teamId, setTeamId] = useState(String(teams[0]?.id ?? ""));
  const [source, setSource] = useState<"written" | "template">("written");
  const [templateId, setTemplateId] = useState(String(templates[0]?.id ?? ""));
  const [warmup, setWarmup] = useState("");
  const [cooldown, setCooldown] = useState("");
  const [blocks, setBlocks] = useState<BlockRow[]>([NEW_BLOCK]);
  const [saved, setSaved] = useState<string | null>(null);
  const seatCount = Number(boat[1]);
  const setBlock = (k: number, patch: Partial<BlockRow>) => setBlocks((bs) => bs.map((b, i) => (i === k ? { ...b, ...patch } : b)));

  const create = useSubmit(
    () =>
      trpc.plans.create.mutate({
        date,
        title,
        audience:
          who === "athlete"
            ? { kind: "athlete", athleteId: Number(athleteId) }
            : who === "crew"
              ? { kind: "crew", boatClass: boat, seats: seats.slice(0, seatCount).map(Number) }
              : { kind: "team", teamId: Number(teamId) },
        source:
          source === "template"
            ? { kind: "template", templateId: Number(templateId) }
            : {
                kind: "written",
                warmup: num(warmup) ? { duration_s: Math.round(num(warmup)! * 60) } : null,
                cooldown: num(cooldown) ? { duration_s: Math.round(num(cooldown)! * 60) } : null,
                blocks: blocks.map((b) => {
                  const pace = paceSeconds(b.pace);
                  const rate = num(b.rate);
                  const targets = pace !== undefined || rate !== undefined ? { pace_s_per_500m: pace, rate_spm: rate } : undefined;
                  return {
                    reps: Number(b.reps),
                    ...(b.unit === "m" ? { distance_m: Number(b.amount) } : { duration_s: Number(b.amount) }),
                    rest_s: num(b.rest) ?? 0,
                    targets,
                  };
                }),
              },
      }),
    () => {
      setSaved(`Planned for ${date}.`);
      router.refresh();
    },
  );

  if (!athletes.length && !teams.length)
    return <p className="card muted">Add athletes or a team (Club in the menu) to plan workouts for them.</p>;
  return (
    <details className="card plan-form-card">
      <summary>Plan a workout</summary>
      <form className="stack plan-form" onSubmit={create.submit} aria-label="Plan a workout">
        <div className="plan-form-row">
          <div className="field">
            <label htmlFor="plan-date">Day</label>
            <input id="plan-date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="plan-title">Title (optional)</label>
            <input id="plan-title" maxLength={128} value={title} onChange={(e) => setTitle(e.target.value)} />
          </div>
        </div>
        <fieldset className="plan-form-row">
          <legend>For</legend>
          <div className="field">
            <label htmlFor="plan-who">Who</label>
            <select id="plan-who" value={who} onChange={(e) => setWho(e.target.value as typeof who)}>
              <option value="athlete">One athlete</option>
              <option value="crew">A crew</option>
              {teams.length ? <option value="team">A team</option> : null}
            </select>
          </div>
          {who === "athlete" ? (
            <div className="field">
              <label htmlFor="plan-athlete">Athlete</label>
              <select id="plan-athlete" value={athleteId} onChange={(e) => setAthleteId(e.target.value)}>
                {athletes.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {who === "team" ? (
            <div className="field">
              <label htmlFor="plan-team">Team</label>
              <select id="plan-team" value={teamId} onChange={(e) => setTeamId(e.target.value)}>
                {teams.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {who === "crew" ? (
            <>
              <div className="field">
                <label htmlFor="plan-boat">Boat</label>
                <select id="plan-boat" value={boat} onChange={(e) => setBoat(e.target.value as typeof boat)}>
                  {BOATS.map((b) => (
                    <option key={b}>{b}</option>
                  ))}
                </select>
              </div>
              {Array.from({ length: seatCount }, (_, k) => (
                <div className="field" key={k}>
                  <label htmlFor={`plan-seat-${k + 1}`}>Seat {k + 1}</label>
                  <select
                    id={`plan-seat-${k + 1}`}
                    value={seats[k] ?? ""}
                    onChange={(e) => setSeats((s) => Object.assign([...s], { [k]: e.target.value }))}
                  >
                    <option value="">Choose</option>
                    {athletes.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.name}
                      </option>
                    ))}
                  </select>
                </div>
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
            <div className="field">
              <label htmlFor="plan-template">Template</label>
              <select id="plan-template" value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
                {templates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <>
              <div className="field">
                <label htmlFor="plan-warmup">Warm-up (minutes, optional)</label>
                <input id="plan-warmup" inputMode="decimal" value={warmup} onChange={(e) => setWarmup(e.target.value)} />
              </div>
              {blocks.map((b, k) => (
                <fieldset key={k} className="plan-block" data-testid="plan-block">
                  <legend>Reps {k + 1}</legend>
                  <div className="field">
                    <label htmlFor={`block-${k}-reps`}>Reps</label>
                    <input
                      id={`block-${k}-reps`}
                      inputMode="numeric"
                      value={b.reps}
                      onChange={(e) => setBlock(k, { reps: e.target.value })}
                    />
                  </div>
                  <div className="field">
                    <label htmlFor={`block-${k}-amount`}>Each rep</label>
                    <input
                      id={`block-${k}-amount`}
                      inputMode="numeric"
                      value={b.amount}
                      onChange={(e) => setBlock(k, { amount: e.target.value })}
                    />
                  </div>
                  <div className="field">
                    <label htmlFor={`block-${k}-unit`}>Unit</label>
                    <select id={`block-${k}-unit`} value={b.unit} onChange={(e) => setBlock(k, { unit: e.target.value as "m" | "s" })}>
                      <option value="m">metres</option>
                      <option value="s">seconds</option>
                    </select>
                  </div>
                  <div className="field">
                    <label htmlFor={`block-${k}-rest`}>Rest after each (s)</label>
                    <input
                      id={`block-${k}-rest`}
                      inputMode="numeric"
                      value={b.rest}
                      onChange={(e) => setBlock(k, { rest: e.target.value })}
                    />
                  </div>
                  <div className="field">
                    <label htmlFor={`block-${k}-pace`}>Pace /500 m (m:ss, optional)</label>
                    <input id={`block-${k}-pace`} value={b.pace} onChange={(e) => setBlock(k, { pace: e.target.value })} />
                  </div>
                  <div className="field">
                    <label htmlFor={`block-${k}-rate`}>Rate spm (optional)</label>
                    <input
                      id={`block-${k}-rate`}
                      inputMode="numeric"
                      value={b.rate}
                      onChange={(e) => setBlock(k, { rate: e.target.value })}
                    />
                  </div>
                  {blocks.length > 1 ? (
                    <button type="button" className="secondary" onClick={() => setBlocks((bs) => bs.filter((_, i) => i !== k))}>
                      Remove reps {k + 1}
                    </button>
                  ) : null}
                </fieldset>
              ))}
              <div className="row">
                <button type="button" className="secondary" onClick={() => setBlocks((bs) => [...bs, { ...NEW_BLOCK }])}>
                  Add reps
                </button>
              </div>
              <div className="field">
                <label htmlFor="plan-cooldown">Cool-down (minutes, optional)</label>
                <input id="plan-cooldown" inputMode="decimal" value={cooldown} onChange={(e) => setCooldown(e.target.value)} />
              </div>
            </>
          )}
        </fieldset>
        <FormError message={create.errors.form} />
        {Object.entries(create.errors.fields).length ? (
          <p className="form-error">{Object.values(create.errors.fields).flat().join(" ")}</p>
        ) : null}
        <div className="row">
          <button type="submit" disabled={create.pending}>
            Plan workout
          </button>
          {saved ? <span role="status">{saved}</span> : null}
        </div>
      </form>
    </details>
  );
}
