"use client";

import { useRouter } from "next/navigation";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function RevokeAccessButton({ applicationId, name }: { applicationId: number; name: string }) {
  const router = useRouter();
  const { pending, errors, submit } = useSubmit(
    () => trpc.applications.revokeConnected.mutate({ applicationId }),
    () => router.refresh(),
  );
  return (
    <>
      <FormError message={errors.form} />
      <button
        type="button"
        className="danger"
        disabled={pending}
        aria-label={`Revoke access for ${name}`}
        onClick={() => {
          if (window.confirm(`Withdraw ${name}'s access? It stops working immediately.`)) void submit();
        }}
      >
        Revoke access
      </button>
    </>
  );
}
