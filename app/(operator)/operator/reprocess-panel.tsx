"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** Starts a reprocessing run (one at a time; the server refuses a second with a message shown here). */
export function StartReprocessButton({ coreVersion, disabled }: { coreVersion: number; disabled: boolean }) {
  const router = useRouter();
  const { pending, errors, submit } = useSubmit(
    () => trpc.operator.startReprocess.mutate(),
    () => router.refresh(),
  );
  return (
    <div className="stack">
      <FormError message={errors.form} />
      <div className="row">
        <button type="button" disabled={pending || disabled} onClick={() => void submit()}>
          Reprocess stored files with core v{coreVersion}
        </button>
      </div>
    </div>
  );
}

/** While a run is active the server-rendered progress refreshes itself every two seconds. */
export function RefreshWhileActive({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), 2_000);
    return () => clearInterval(timer);
  }, [active, router]);
  return null;
}
