"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function WeightForm() {
  const router = useRouter();
  const [measuredOn, setMeasuredOn] = useState(new Date().toISOString().slice(0, 10));
  const [weightKg, setWeightKg] = useState("");
  const { pending, errors, submit } = useSubmit(
    () => trpc.health.addWeight.mutate({ measuredOn, weightKg }),
    () => {
      setWeightKg("");
      router.refresh();
    },
  );
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-label="Add a weight">
      <FormError message={errors.form} />
      <div className="row">
        <Field label="Date" name="measuredOn" type="date" value={measuredOn} onChange={(e) => setMeasuredOn(e.target.value)} errors={errors.fields.measuredOn} />
        <Field label="Weight (kg)" name="weightKg" inputMode="decimal" value={weightKg} onChange={(e) => setWeightKg(e.target.value)} errors={errors.fields.weightKg} />
        <button type="submit" disabled={pending}>
          Add weight
        </button>
      </div>
    </form>
  );
}

export function LactateForm({ sessions }: { sessions: { id: number; label: string }[] }) {
  const router = useRouter();
  const [resultId, setResultId] = useState(sessions[0]?.id ?? 0);
  const [measuredAt, setMeasuredAt] = useState(new Date().toISOString().slice(0, 16));
  const [lactate, setLactate] = useState("");
  const [note, setNote] = useState("");
  const { pending, errors, submit } = useSubmit(
    () => trpc.health.addLactate.mutate({ resultId, measuredAt: `${measuredAt}:00`, lactateMmolL: lactate, note }),
    () => {
      setLactate("");
      setNote("");
      router.refresh();
    },
  );
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-label="Add a lactate reading">
      <FormError message={errors.form} />
      <div className="row">
        <div className="field">
          <label htmlFor="lactate-session">Session</label>
          <select id="lactate-session" value={resultId} onChange={(e) => setResultId(Number(e.target.value))}>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
          {errors.fields.resultId ? <p className="field-error">{errors.fields.resultId.join(" ")}</p> : null}
        </div>
        <Field label="Measured at" name="measuredAt" type="datetime-local" value={measuredAt} onChange={(e) => setMeasuredAt(e.target.value)} errors={errors.fields.measuredAt} />
        <Field label="Lactate (mmol/L)" name="lactate" inputMode="decimal" value={lactate} onChange={(e) => setLactate(e.target.value)} errors={errors.fields.lactateMmolL} />
        <Field label="Note" name="note" value={note} onChange={(e) => setNote(e.target.value)} errors={errors.fields.note} hint="e.g. 3 min after" />
        <button type="submit" disabled={pending}>
          Add reading
        </button>
      </div>
    </form>
  );
}

export function DeleteHealthButton({ kind, id, label }: { kind: "weight" | "lactate"; id: number; label: string }) {
  const router = useRouter();
  const { pending, submit } = useSubmit(
    () => (kind === "weight" ? trpc.health.deleteWeight.mutate({ id }) : trpc.health.deleteLactate.mutate({ id })),
    () => router.refresh(),
  );
  return (
    <button type="button" className="link-button" disabled={pending} aria-label={`Delete ${label}`} onClick={() => submit()}>
      Delete
    </button>
  );
}
