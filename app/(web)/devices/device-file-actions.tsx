"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { FormError } from "@/app/_components/form";
import { formErrorsOf, trpc } from "@/app/_lib/trpc";
import { jobWorking, usePolledJob } from "@/app/_lib/use-polled-job";

type Job = { jobId: string; kind: string; state: string; deletedFiles: number | null; error: string | null; downloadUrl: string | null };

const useDeviceJob = () => usePolledJob<Job>((jobId) => trpc.devices.job.query({ jobId }));

/** Fetch original: copies the stored encrypted file, then offers it for one download. */
export function FetchOriginal({ deviceId, filename }: { deviceId: number; filename: string }) {
  const { job, setJob, error, setError } = useDeviceJob();
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
        disabled={jobWorking(job)}
        onClick={() => {
          setTaken(false);
          setError(null);
          trpc.devices.fetchOriginal
            .mutate({ deviceId, filename })
            .then(setJob)
            .catch((e: unknown) => setError(formErrorsOf(e).form));
        }}
      >
        {jobWorking(job) ? "Preparing…" : taken ? "Fetch again" : "Fetch original"}
      </button>
      {job?.state === "failed" && <span role="status"> {job.error}</span>}
      <FormError message={error} />
    </span>
  );
}

/** Delete files: removes every stored original of the unit, as a job with its status. */
export function DeleteDeviceFiles({ deviceId, files }: { deviceId: number; files: number }) {
  const router = useRouter();
  const { job, setJob, error } = useDeviceJob();
  useEffect(() => {
    if (job?.state === "succeeded") router.refresh();
  }, [job?.state, router]);
  const working = jobWorking(job);
  return (
    <div>
      {working || files === 0 ? (
        <button type="button" className="danger" disabled>
          Delete files
        </button>
      ) : (
        <ConfirmButton
          label="Delete files"
          buttonClassName="danger"
          title="Delete this unit's stored files?"
          statement={`The unit's ${files} stored original file${files === 1 ? " is" : "s are"} deleted for good; the sessions keep their processed data and results.`}
          confirmLabel="Delete files"
          action={() => trpc.devices.deleteFiles.mutate({ deviceId })}
          onDone={setJob}
        />
      )}
      {job && (
        <span role="status" aria-live="polite">
          {" "}
          {working
            ? "Deleting…"
            : job.state === "succeeded"
              ? `Deleted ${job.deletedFiles ?? 0} file${job.deletedFiles === 1 ? "" : "s"}.`
              : job.error}
        </span>
      )}
      <FormError message={error} />
    </div>
  );
}
