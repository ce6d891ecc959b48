"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

export type TrainingStatus = "queued" | "processing" | "ready" | "failed";

const LABELS: Record<TrainingStatus, string> = { queued: "Queued", processing: "Processing", ready: "Ready", failed: "Failed" };

export function TrainingStatusBadge({ status }: { status: TrainingStatus }) {
  return (
    <span className={status === "failed" ? "badge warn" : "badge"} data-status={status}>
      {LABELS[status]}
    </span>
  );
}

/** Re-renders the page from the server every `intervalMs` while the training is not finished; stops on ready or failed. */
export function RefreshWhilePending({ pending, intervalMs = 2000 }: { pending: boolean; intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => router.refresh(), intervalMs);
    return () => clearInterval(timer);
  }, [pending, intervalMs, router]);
  return null;
}
