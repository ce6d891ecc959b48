"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, SelectField, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

type Choice = { id: number; label: string };

/** The owner's boat and paddle used in this session, chosen from their equipment. */
export function SessionEquipmentForm({
  resultId,
  boats,
  paddles,
  current,
}: {
  resultId: number;
  boats: Choice[];
  paddles: Choice[];
  current: { vesselId: number | null; paddleId: number | null };
}) {
  const router = useRouter();
  const [vesselId, setVesselId] = useState(current.vesselId?.toString() ?? "");
  const [paddleId, setPaddleId] = useState(current.paddleId?.toString() ?? "");
  const [saved, setSaved] = useState(false);
  const { pending, errors, submit } = useSubmit(
    () =>
      trpc.sessions.setEquipment.mutate({
        resultId,
        vesselId: vesselId ? Number(vesselId) : null,
        paddleId: paddleId ? Number(paddleId) : null,
      }),
    () => {
      setSaved(true);
      router.refresh();
    },
  );
  const options = (items: Choice[]) => [
    { value: "", label: "Not recorded" },
    ...items.map((i) => ({ value: String(i.id), label: i.label })),
  ];
  const noEquipment = boats.length === 0 && paddles.length === 0;
  return (
    <form className="card stack" aria-labelledby="equipment-heading" onSubmit={submit} noValidate>
      <p className="muted">
        The boat and paddle you used, from <Link href="/equipment">your equipment</Link>
        {noEquipment ? " (none yet: add them there first)" : ""}. Applications you allow to read your sessions see them too.
      </p>
      <FormError message={errors.form} />
      <div className="row">
        <SelectField
          label="Boat"
          name="session-boat"
          options={options(boats)}
          value={vesselId}
          errors={errors.fields.vesselId}
          onChange={(e) => {
            setVesselId(e.target.value);
            setSaved(false);
          }}
        />
        <SelectField
          label="Paddle"
          name="session-paddle"
          options={options(paddles)}
          value={paddleId}
          errors={errors.fields.paddleId}
          onChange={(e) => {
            setPaddleId(e.target.value);
            setSaved(false);
          }}
        />
        <button type="submit" disabled={pending}>
          Save equipment
        </button>
      </div>
      {/* Always present, so screen readers announce the message when it appears. */}
      <p role="status" className={saved ? "notice" : "visually-hidden"}>
        {saved ? "Equipment saved." : ""}
      </p>
    </form>
  );
}
