"use client";

import { useRouter } from "next/navigation";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
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
  return (
    <div className="row">
      <button
        type="button"
        className="secondary"
        disabled={duplicate.pending}
        onClick={() => duplicate.submit()}
        aria-label={`Duplicate ${name}`}
      >
        Duplicate
      </button>
      <ConfirmButton
        label="Delete"
        ariaLabel={`Delete ${name}`}
        buttonClassName="danger"
        title={`Delete the workout template “${name}”?`}
        statement="The template is deleted for good; trainings planned from it keep their sets and no longer name it."
        confirmLabel="Delete template"
        action={() => trpc.workouts.delete.mutate({ id })}
        onDone={() => {
          router.push(afterDelete);
          router.refresh();
        }}
      />
      <FormError message={duplicate.errors.form} />
    </div>
  );
}
