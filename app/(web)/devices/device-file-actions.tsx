"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { FormError } from "@/app/_components/form";
import { formErrorsOf, trpc } from "@/app/_lib/trpc";

type Job = { jobId: string; kind: string; state: string; deletedFiles: number | null; error: string | null; downloadUrl: string | null };

/** Polls a device job until it is no longer queued or running. */
function useDeviceJob(): [Job | null, (job: Job) => void, string | null, (message: string | null) => void] {
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!job || (job.state !== "queued" && job.state !== "running")) return;
    const timer = setTimeout(() => {
      trpc.devices.job
        .query({ jobId: job.jobId })
        .then(setJob)
        .catch((e: unknown) => setError(formErrorsOf(e).form));
    }, 1000);
    return () => clearTimeout(timer);
  }, [job]);
  return [job, setJob, error, setError];
}

/** Fetch original: copies the stored encrypted file, then offers it for one download. */
export function FetchOriginal({ deviceId, filename }: { deviceId: number; filename: string }) {
  const [job, setJob, error, setError] = useDeviceJob();
  const [taken, setTaken] = useState(false);
  if (job?.downloadUrl && !taken) {
    return (
      <form method="post" action={job.downloadUrl} onSubmit={() => setTimeout(() => setTaken(true), 500)}>
        <button type="submit">Download original (once)</button>
      </form>
    );
  }
  return (
    <span>
      <button
        type="button"
        className="secondary"
        disabled={job?.state === "queued" || job?.state === "running"}
        onClick={() => {
          setTaken(false);
          setError(null);
          trpc.devices.fetchOriginal
            .mutate({ deviceId, filename })
            .then(setJob)
            .catch((e: unknown) => setError(formErrorsOf(e).form));
        }}
      >
        {job?.state === "queued" || job?.state === "running" ? "Preparing…" : taken ? "Fetch again" : "Fetch original"}
      </button>
      {job?.state === "failed" && <span role="status"> {job.error}</span>}
      <FormError message={error} />
    </span>
  );
}

/** Delete files: removes every stored original of the unit, as a job with its status. */
export function DeleteDeviceFiles({ deviceId, files }: { deviceId: number; files: number }) {
  const router = useRouter();
  const [job, setJob, error, setError] = useDeviceJob();
  useEffect(() => {
    if (job?.state === "succeeded") router.refresh();
  }, [job?.state, router]);
  const working = job?.state === "queued" || job?.state === "running";
  return (
    <div>
      <button
        type="button"
        className="danger"
        disabled={working || files === 0}
        onClick={() => {
          if (!window.confirm("Delete this unit's stored original files? Sessions keep their results.")) return;
          setError(null);
          trpc.devices.deleteFiles
            .mutate({ deviceId })
            .then(setJob)
            .catch((e: unknown) => setError(formErrorsOf(e).form));
        }}
      >
        Delete files
      </button>
      {job && (
        <span role="status" aria-live="polite">
          {" "}
          {working ? "Deleting…" : job.state === "succeeded" ? `Deleted ${job.deletedFiles ?? 0} file${job.deletedFiles === 1 ? "" : "s"}.` : job.error}
        </span>
      )}
      <FormError message={error} />
    </div>
  );
}
