"use client";

import { useRouter } from "next/navigation";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** Unlink the training from its plan, or link it to the best plan again (kept across reprocessing, docs/plans.md). */
export function PlanLinkButtons({ trainingId, canUnlink, canRelink }: { trainingId: number; canUnlink: boolean; canRelink: boolean }) {
  const router = useRouter();
  const unlink = useSubmit(
    () => trpc.plans.link.mutate({ trainingId, planId: null }),
    () => router.refresh(),
  );
  const relink = useSubmit(
    () => trpc.plans.resetLink.mutate({ trainingId }),
    () => router.refresh(),
  );
  if (!canUnlink && !canRelink) return null;
  return (
    <div className="row">
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
      <FormError message={unlink.errors.form ?? relink.errors.form} />
    </div>
  );
}
