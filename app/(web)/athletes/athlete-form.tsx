"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import type { AthleteView } from "@/server/athletes/athletes";

/** Create (no athlete) or edit an athlete. */
export function AthleteForm({ athlete }: { athlete?: AthleteView }) {
  const router = useRouter();
  const [values, setValues] = useState({
    name: athlete?.name ?? "",
    surname: athlete?.surname ?? "",
    dateOfBirth: athlete?.dateOfBirth ?? "",
    modality: athlete?.modality ?? "",
    weightKg: athlete?.weightKg?.toString() ?? "",
    subscriptionActiveUntil: athlete?.subscriptionActiveUntil ?? "",
  });
  const { pending, errors, submit } = useSubmit(
    () => (athlete ? trpc.athletes.update.mutate({ id: athlete.id, values }) : trpc.athletes.create.mutate(values)),
    () => {
      router.push("/athletes");
      router.refresh();
    },
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });
  const f = errors.fields;

  return (
    <form className="stack card" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <div className="row">
        <Field label="Name" name="name" required value={values.name} onChange={set("name")} errors={f.name} />
        <Field label="Surname" name="surname" value={values.surname} onChange={set("surname")} errors={f.surname} />
      </div>
      <div className="row">
        <Field
          label="Date of birth"
          name="dateOfBirth"
          type="date"
          value={values.dateOfBirth}
          onChange={set("dateOfBirth")}
          errors={f.dateOfBirth}
        />
        <Field
          label="Modality"
          name="modality"
          list="modalities"
          value={values.modality}
          onChange={set("modality")}
          errors={f.modality}
          hint="Kayak, Canoe, Para kayak…"
        />
        <datalist id="modalities">
          <option value="Kayak" />
          <option value="Canoe" />
          <option value="Para kayak" />
          <option value="Para canoe" />
        </datalist>
      </div>
      <div className="row">
        <Field
          label="Weight (kg)"
          name="weightKg"
          inputMode="decimal"
          value={values.weightKg}
          onChange={set("weightKg")}
          errors={f.weightKg}
        />
        <Field
          label="Subscription active until"
          name="subscriptionActiveUntil"
          type="date"
          value={values.subscriptionActiveUntil}
          onChange={set("subscriptionActiveUntil")}
          errors={f.subscriptionActiveUntil}
          hint="Uploads can only name athletes with an active subscription."
        />
      </div>
      <div className="row">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : athlete ? "Save changes" : "Create athlete"}
        </button>
      </div>
    </form>
  );
}
