"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
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

/**
 * Stops the active run (docs/processing.md "Reprocessing"), after the app's
 * confirm dialog, with an optional reason. The server refuses a run that is
 * already over (another operator was quicker, or it just finished).
 */
export function StopReprocessButton({ runId, stalled }: { runId: number; stalled: boolean }) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  return (
    <ConfirmButton
      label={`Stop run ${runId}`}
      title={`Stop reprocessing run ${runId}?`}
      statement={
        (stalled ? "It has made no progress for a while: its background function is probably lost. " : "It is still making progress. ") +
        "The run ends as stopped and a new run can start. Files already reprocessed keep their new figures; the others keep theirs until the next run."
      }
      confirmLabel="Stop run"
      action={() => trpc.operator.stopReprocess.mutate({ runId, reason: reason.trim() || undefined })}
      onDone={() => {
        setReason("");
        router.refresh();
      }}
    >
      <div className="field">
        <label htmlFor={`stop-reason-${runId}`}>Reason (optional)</label>
        <input id={`stop-reason-${runId}`} value={reason} maxLength={300} onChange={(e) => setReason(e.target.value)} />
      </div>
    </ConfirmButton>
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
