"use client";

import { useRouter } from "next/navigation";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** Duplicate (opens the copy) and delete (after a confirmation) of one template. */
export function TemplateActions({ id, name, afterDelete = "/workouts" }: { id: number; name: string; afterDelete?: string }) {
  const router = useRouter();
  const duplicate = useSubmit(
    () => trpc.workouts.duplicate.mutate({ id }),
    (copy) => {
      router.push(`/workouts/${copy.id}`);
      router.refresh();
    },
  );
  const remove = useSubmit(
    () => trpc.workouts.delete.mutate({ id }),
    () => {
      router.push(afterDelete);
      router.refresh();
    },
  );
  return (
    <div className="row">
      <button type="button" className="secondary" disabled={duplicate.pending} onClick={() => duplicate.submit()} aria-label={`Duplicate ${name}`}>
        Duplicate
      </button>
      <button type="button" className="danger" disabled={remove.pending} onClick={() => window.confirm(`Delete the workout template "${name}"? This cannot be undone.`) && remove.submit()} aria-label={`Delete ${name}`}>
        Delete
      </button>
      <FormError message={duplicate.errors.form ?? remove.errors.form} />
    </div>
  );
}
