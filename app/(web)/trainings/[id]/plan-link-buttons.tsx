"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** Link the training to a chosen plan, unlink it, or link it to the best plan again (a person's choice is kept across reprocessing, docs/plans.md). */
export function PlanLinkButtons({
  trainingId,
  canUnlink,
  canRelink,
  choices,
}: {
  trainingId: number;
  canUnlink: boolean;
  canRelink: boolean;
  choices: { id: number; title: string; date: string }[];
}) {
  const router = useRouter();
  const [chosen, setChosen] = useState(String(choices[0]?.id ?? ""));
  const link = useSubmit(
    () => trpc.plans.link.mutate({ trainingId, planId: Number(chosen) }),
    () => router.refresh(),
  );
  const unlink = useSubmit(
    () => trpc.plans.link.mutate({ trainingId, planId: null }),
    () => router.refresh(),
  );
  const relink = useSubmit(
    () => trpc.plans.resetLink.mutate({ trainingId }),
    () => router.refresh(),
  );
  if (!canUnlink && !canRelink && !choices.length) return null;
  return (
    <div className="row plan-actions">
      {choices.length ? (
        <>
          <label htmlFor="plan-choice">Link to</label>
          <select id="plan-choice" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.date} · {c.title}
              </option>
            ))}
          </select>
          <button type="button" className="secondary" disabled={link.pending || !chosen} onClick={() => link.submit()}>
            Link
          </button>
        </>
      ) : null}
      {canUnlink ? (
        <button type="button" className="secondary" disabled={unlink.pending} onClick={() => unlink.submit()}>
          Unlink from plan
        </button>
      ) : null}
      {canRelink ? (
        <button type="button" className="secondary" disabled={relink.pending} onClick={() => relink.submit()}>
          Re-link to the best plan
        </button>
      ) : null}
      <FormError message={link.errors.form ?? unlink.errors.form ?? relink.errors.form} />
    </div>
  );
}
