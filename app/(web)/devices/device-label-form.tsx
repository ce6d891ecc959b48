"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function DeviceLabelForm({ id, label }: { id: number; label: string }) {
  const router = useRouter();
  const [value, setValue] = useState(label);
  const { pending, errors, submit } = useSubmit(
    () => trpc.devices.rename.mutate({ id, label: value }),
    () => router.refresh(),
  );
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <div className="row">
        <Field
          label="Name of this unit"
          name={`device-${id}-label`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          errors={errors.fields.label}
        />
        <button type="submit" className="secondary" disabled={pending}>
          Save name
        </button>
      </div>
    </form>
  );
}
