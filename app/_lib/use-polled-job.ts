"use client";

import { useEffect, useState } from "react";
import { formErrorsOf } from "@/app/_lib/trpc";

/** A background job as its status query answers it: queued and running are the states still moving. */
export type PolledJob = { jobId: string; state: string };

export const jobWorking = (job: PolledJob | null) => job?.state === "queued" || job?.state === "running";

/**
 * Holds a job (export, device files) and asks `poll` for its status every
 * second while it is queued or running; a failed poll becomes the form error.
 */
export function usePolledJob<J extends PolledJob>(poll: (jobId: string) => Promise<J>) {
  const [job, setJob] = useState<J | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!job || !jobWorking(job)) return;
    const timer = setTimeout(() => {
      poll(job.jobId)
        .then(setJob)
        .catch((e: unknown) => setError(formErrorsOf(e).form));
    }, 1000);
    return () => clearTimeout(timer);
    // `poll` is a module-level tRPC call at every use; the job alone drives the timer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job]);
  return { job, setJob, error, setError };
}
