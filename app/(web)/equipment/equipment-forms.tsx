"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { ConfirmButton } from "@/app/_components/confirm-dialog";

export function VesselForm({ types }: { types: { id: number; name: string }[] }) {
  const router = useRouter();
  const empty = { name: "", brand: "", model: "", weightKg: "" };
  const [values, setValues] = useState(empty);
  const [vesselTypeId, setVesselTypeId] = useState(types[0]?.id ?? 0);
  const { pending, errors, submit } = useSubmit(
    () => trpc.equipment.createVessel.mutate({ ...values, vesselTypeId }),
    () => {
      setValues(empty);
      router.refresh();
    },
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-label="Add a boat">
      <FormError message={errors.form} />
      <div className="row">
        <Field label="Boat name" name="boat-name" value={values.name} onChange={set("name")} errors={errors.fields.name} />
        <div className="field">
          <label htmlFor="boat-type">Type</label>
          <select id="boat-type" value={vesselTypeId} onChange={(e) => setVesselTypeId(Number(e.target.value))}>
            {types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <Field label="Brand" name="boat-brand" value={values.brand} onChange={set("brand")} errors={errors.fields.brand} />
        <Field label="Model" name="boat-model" value={values.model} onChange={set("model")} errors={errors.fields.model} />
        <Field
          label="Weight (kg)"
          name="boat-weight"
          inputMode="decimal"
          value={values.weightKg}
          onChange={set("weightKg")}
          errors={errors.fields.weightKg}
        />
        <button type="submit" disabled={pending}>
          Add boat
        </button>
      </div>
    </form>
  );
}

export function PaddleForm() {
  const router = useRouter();
  const empty = { name: "", brand: "", model: "", lengthCm: "", bladeAreaCm2: "" };
  const [values, setValues] = useState(empty);
  const [kind, setKind] = useState<"kayak" | "canoe">("kayak");
  const { pending, errors, submit } = useSubmit(
    () => trpc.equipment.createPaddle.mutate({ ...values, kind }),
    () => {
      setValues(empty);
      router.refresh();
    },
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });
  return (
    <form className="stack card" onSubmit={submit} noValidate aria-label="Add a paddle">
      <FormError message={errors.form} />
      <div className="row">
        <Field label="Paddle name" name="paddle-name" value={values.name} onChange={set("name")} errors={errors.fields.name} />
        <div className="field">
          <label htmlFor="paddle-kind">Kind</label>
          <select id="paddle-kind" value={kind} onChange={(e) => setKind(e.target.value as "kayak" | "canoe")}>
            <option value="kayak">Kayak (double blade)</option>
            <option value="canoe">Canoe (single blade)</option>
          </select>
        </div>
        <Field label="Brand" name="paddle-brand" value={values.brand} onChange={set("brand")} errors={errors.fields.brand} />
        <Field label="Model" name="paddle-model" value={values.model} onChange={set("model")} errors={errors.fields.model} />
        <Field
          label="Length (cm)"
          name="paddle-length"
          inputMode="decimal"
          value={values.lengthCm}
          onChange={set("lengthCm")}
          errors={errors.fields.lengthCm}
        />
        <Field
          label="Blade area (cm²)"
          name="paddle-area"
          inputMode="decimal"
          value={values.bladeAreaCm2}
          onChange={set("bladeAreaCm2")}
          errors={errors.fields.bladeAreaCm2}
        />
        <button type="submit" disabled={pending}>
          Add paddle
        </button>
      </div>
    </form>
  );
}

/** Deleting a boat or paddle asks first; sessions that used it keep their data (ON DELETE SET NULL). */
export function DeleteEquipmentButton({ kind, id, name }: { kind: "vessel" | "paddle"; id: number; name: string }) {
  const router = useRouter();
  const noun = kind === "vessel" ? "boat" : "paddle";
  return (
    <ConfirmButton
      label="Delete"
      ariaLabel={`Delete ${name}`}
      buttonClassName="link-button"
      title={`Delete ${noun} “${name}”?`}
      statement={`Sessions recorded with it keep their data; they no longer name this ${noun}.`}
      confirmLabel={`Delete ${noun}`}
      action={() => (kind === "vessel" ? trpc.equipment.deleteVessel.mutate({ id }) : trpc.equipment.deletePaddle.mutate({ id }))}
      onDone={() => router.refresh()}
    />
  );
}
