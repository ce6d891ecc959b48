"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, SelectField, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

type Choice = { id: number; label: string };
export type SeatValue = { athleteId: number } | { name: string; surname: string; weightKg: number | null };

export interface CorrectionFormProps {
  resultId: number;
  boats: (Choice & { npeople: number })[];
  tracks: Choice[];
  categories: Choice[];
  paces: Choice[];
  athletes: Choice[];
  current: {
    vesselId: number;
    trackId: number;
    categoryId: number;
    paceId: number;
    crew: SeatValue[];
    competition: string;
    description: string;
    important: boolean;
  };
}

/** A seat's option value: "a:<athlete id>", or "x:<seat>" for the external paddler typed at upload. */
const seatKey = (seat: SeatValue, index: number) => ("athleteId" in seat ? `a:${seat.athleteId}` : `x:${index}`);

/** The owner's corrections: what the upload form asked for, except the file. A boat class change reprocesses the original file. */
export function SessionCorrectionForm({ resultId, boats, tracks, categories, paces, athletes, current }: CorrectionFormProps) {
  const router = useRouter();
  const [vesselId, setVesselId] = useState(String(current.vesselId));
  const [trackId, setTrackId] = useState(String(current.trackId));
  const [categoryId, setCategoryId] = useState(String(current.categoryId));
  const [paceId, setPaceId] = useState(String(current.paceId));
  const [seats, setSeats] = useState(current.crew.map(seatKey));
  const [competition, setCompetition] = useState(current.competition);
  const [description, setDescription] = useState(current.description);
  const [important, setImportant] = useState(current.important);
  const [saved, setSaved] = useState<string | null>(null);
  const npeople = boats.find((b) => String(b.id) === vesselId)?.npeople ?? 1;
  const externals = current.crew.flatMap((seat, index) =>
    "athleteId" in seat ? [] : [{ key: `x:${index}`, seat, label: `${seat.name} ${seat.surname} (external)`.trim() }],
  );
  const seatOptions = [
    { value: "", label: "Choose an athlete" },
    ...athletes.map((a) => ({ value: `a:${a.id}`, label: a.label })),
    ...externals.map((e) => ({ value: e.key, label: e.label })),
  ];
  const crewOf = () =>
    Array.from({ length: npeople }, (_, k): SeatValue | null => {
      const value = seats[k] ?? "";
      if (value.startsWith("a:")) return { athleteId: Number(value.slice(2)) };
      return externals.find((e) => e.key === value)?.seat ?? null;
    });
  const { pending, errors, submit, setErrors } = useSubmit(
    () =>
      trpc.sessions.correct.mutate({
        resultId,
        vesselId: Number(vesselId),
        trackId: Number(trackId),
        categoryId: Number(categoryId),
        paceId: Number(paceId),
        crew: crewOf() as SeatValue[],
        competition,
        description,
        important,
      }),
    (outcome) => {
      setSaved(outcome.reprocessed ? "Saved. The session was processed again for the new boat class; records follow." : "Saved.");
      router.refresh();
    },
  );
  // Empty seats are named here, in the form's words, before anything is sent.
  const onSubmit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    const empty = crewOf().flatMap((seat, k) => (seat ? [] : [k]));
    if (empty.length) {
      setErrors({
        form: "Please correct the highlighted fields.",
        fields: Object.fromEntries(empty.map((k) => [`seat-${k}`, [`Seat ${k + 1}: choose an athlete`]])),
      });
      return;
    }
    void submit();
  };
  const crewErrors = errors.fields.athletes ?? errors.fields.crew;
  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setSaved(null);
      setErrors({ form: null, fields: {} });
    };
  return (
    <form className="card stack" aria-labelledby="correct-heading" onSubmit={onSubmit} noValidate data-testid="correction-form">
      <p className="muted">
        Fix what was entered at upload. Changing the boat class processes the original file again; records and the log follow.
      </p>
      <FormError message={errors.form} />
      <div className="row">
        <SelectField
          label="Boat class"
          name="fix-boat"
          options={boats.map((b) => ({ value: String(b.id), label: b.label }))}
          value={vesselId}
          errors={errors.fields.vessel_id ?? errors.fields.vesselId}
          onChange={(e) => change(setVesselId)(e.target.value)}
        />
        <SelectField
          label="Track"
          name="fix-track"
          options={tracks.map((t) => ({ value: String(t.id), label: t.label }))}
          value={trackId}
          errors={errors.fields.track_id}
          onChange={(e) => change(setTrackId)(e.target.value)}
        />
        <SelectField
          label="Category"
          name="fix-category"
          options={categories.map((c) => ({ value: String(c.id), label: c.label }))}
          value={categoryId}
          onChange={(e) => change(setCategoryId)(e.target.value)}
        />
        <SelectField
          label="Pace"
          name="fix-pace"
          options={paces.map((p) => ({ value: String(p.id), label: p.label }))}
          value={paceId}
          onChange={(e) => change(setPaceId)(e.target.value)}
        />
      </div>
      <fieldset aria-describedby={crewErrors ? "fix-crew-error" : undefined}>
        <legend>Crew, front to back</legend>
        <div className="row">
          {Array.from({ length: npeople }, (_, k) => (
            <SelectField
              key={k}
              label={`Seat ${k + 1}`}
              name={`fix-seat-${k}`}
              options={seatOptions}
              value={seats[k] ?? ""}
              errors={errors.fields[`seat-${k}`]}
              onChange={(e) => change((v: string) => setSeats((s) => Object.assign([...s], { [k]: v })))(e.target.value)}
            />
          ))}
        </div>
        {crewErrors ? (
          <p id="fix-crew-error" className="field-error">
            {crewErrors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <div className="row">
        <div className="field">
          <label htmlFor="fix-competition">Competition</label>
          <input
            id="fix-competition"
            type="text"
            maxLength={64}
            value={competition}
            onChange={(e) => change(setCompetition)(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="fix-description">Description</label>
          <input
            id="fix-description"
            type="text"
            maxLength={64}
            value={description}
            onChange={(e) => change(setDescription)(e.target.value)}
          />
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={important} onChange={(e) => change(setImportant)(e.target.checked)} /> Important
        </label>
      </div>
      <div>
        <button type="submit" disabled={pending}>
          Save corrections
        </button>
      </div>
      <p role="status" className={saved ? "notice" : "visually-hidden"}>
        {saved ?? ""}
      </p>
    </form>
  );
}
