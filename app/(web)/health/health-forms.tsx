"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { Field, FormError, SelectField, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** The person's own weight, or (athleteId) one a coach enters for an athlete they manage. */
export function WeightForm({ athleteId }: { athleteId?: number }) {
  const router = useRouter();
  const [measuredOn, setMeasuredOn] = useState(new Date().toISOString().slice(0, 10));
  const [weightKg, setWeightKg] = useState("");
  const id = (name: string) => (athleteId ? `athlete-${name}` : name);
  const { pending, errors, submit } = useSubmit(
    () =>
      athleteId
        ? trpc.health.addWeightForAthlete.mutate({ athleteId, measuredOn, weightKg })
        : trpc.health.addWeight.mutate({ measuredOn, weightKg }),
    () => {
      setWeightKg("");
      router.refresh();
    },
  );
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-label="Add a weight">
      <FormError message={errors.form} />
      <div className="row">
        <Field
          label="Date"
          name={id("measuredOn")}
          type="date"
          value={measuredOn}
          onChange={(e) => setMeasuredOn(e.target.value)}
          errors={errors.fields.measuredOn}
        />
        <Field
          label="Weight (kg)"
          name={id("weightKg")}
          inputMode="decimal"
          value={weightKg}
          onChange={(e) => setWeightKg(e.target.value)}
          errors={errors.fields.weightKg}
        />
        <button type="submit" disabled={pending}>
          Add weight
        </button>
      </div>
    </form>
  );
}

/**
 * A lactate reading of one session. "Measured at" starts at the chosen
 * session's end (server/health/health.ts lactateTimeOf), not now, and follows
 * the session choice until the person types a time of their own.
 */
export function LactateForm({
  sessions,
  athleteId,
}: {
  sessions: { id: number; label: string; measuredAt: string }[];
  athleteId?: number;
}) {
  const router = useRouter();
  const [resultId, setResultId] = useState(sessions[0]?.id ?? 0);
  const [measuredAt, setMeasuredAt] = useState(sessions[0]?.measuredAt ?? new Date().toISOString().slice(0, 16));
  const [timeTyped, setTimeTyped] = useState(false);
  const [lactate, setLactate] = useState("");
  const [note, setNote] = useState("");
  const id = (name: string) => (athleteId ? `athlete-${name}` : name);
  const { pending, errors, submit } = useSubmit(
    () => {
      const reading = { resultId, measuredAt: `${measuredAt}:00`, lactateMmolL: lactate, note };
      return athleteId ? trpc.health.addLactateForAthlete.mutate({ athleteId, ...reading }) : trpc.health.addLactate.mutate(reading);
    },
    () => {
      setLactate("");
      setNote("");
      router.refresh();
    },
  );
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-label="Add a lactate reading">
      <FormError message={errors.form} />
      <div className="lactate-fields">
        <SelectField
          label="Session"
          name={id("lactate-session")}
          value={String(resultId)}
          onChange={(e) => {
            const id = Number(e.target.value);
            setResultId(id);
            if (!timeTyped) setMeasuredAt(sessions.find((x) => x.id === id)?.measuredAt ?? measuredAt);
          }}
          options={sessions.map((s) => ({ value: String(s.id), label: s.label }))}
          errors={errors.fields.resultId}
        />
        <Field
          label="Measured at (UTC)"
          name={id("measuredAt")}
          type="datetime-local"
          value={measuredAt}
          onChange={(e) => {
            setTimeTyped(true);
            setMeasuredAt(e.target.value);
          }}
          errors={errors.fields.measuredAt}
        />
        <Field
          label="Lactate (mmol/L)"
          name={id("lactate")}
          inputMode="decimal"
          value={lactate}
          onChange={(e) => setLactate(e.target.value)}
          errors={errors.fields.lactateMmolL}
        />
        <Field
          label="Note"
          name={id("note")}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          errors={errors.fields.note}
          hint="e.g. 3 min after"
        />
        <button type="submit" disabled={pending}>
          Add reading
        </button>
      </div>
    </form>
  );
}

/** Deleting a health entry asks first: it cannot be undone. */
export function DeleteHealthButton({ kind, id, label }: { kind: "weight" | "lactate"; id: number; label: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete"
      ariaLabel={`Delete ${label}`}
      buttonClassName="link-button"
      title={`Delete the ${label}?`}
      statement="The entry is removed for good, also from applications you have shared health data with."
      confirmLabel="Delete entry"
      action={() => (kind === "weight" ? trpc.health.deleteWeight.mutate({ id }) : trpc.health.deleteLactate.mutate({ id }))}
      onDone={() => router.refresh()}
    />
  );
}
