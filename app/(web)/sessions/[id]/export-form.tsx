"use client";

import { useState } from "react";
import { FormError } from "@/app/_components/form";
import { formErrorsOf, trpc } from "@/app/_lib/trpc";
import { jobWorking, usePolledJob } from "@/app/_lib/use-polled-job";

/**
 * The session page's Export form: six formats, language, split count and
 * seat (only the seats the person may export: export-menu.tsx); queues the same export job as the Data API, shows its progress and
 * offers the file when it is ready (docs/exports.md).
 */
const FORMATS = [
  ["json", "JSON data"],
  ["pdf", "PDF report"],
  ["pdf-full", "PDF, full report"],
  ["xlsx", "Excel workbook"],
  ["fit", "FIT activity"],
  ["tcx", "TCX activity"],
] as const;
type Format = (typeof FORMATS)[number][0];
type JobStatus = { jobId: string; state: string; error: string | null; downloadUrl: string | null };

const STATE_TEXT: Record<string, string> = {
  queued: "Waiting to start…",
  running: "Building the file…",
  succeeded: "Ready.",
  failed: "Failed.",
  expired: "Expired: export again.",
};

export function ExportForm({ sessionId, seats }: { sessionId: number; seats: Seat[] }) {
  const [format, setFormat] = useState<Format>("pdf");
  const [lang, setLang] = useState<"en" | "es">("en");
  const [splits, setSplits] = useState(4);
  // The person's own seat first, else the first seat they may export.
  const [athlete, setAthlete] = useState((seats.find((s) => s.own) ?? seats[0]).seat);
  const { job, setJob, error, setError } = usePolledJob<JobStatus>((jobId) => trpc.exports.status.query({ jobId }));
  const [pending, setPending] = useState(false);

  async function start() {
    setPending(true);
    setError(null);
    setJob(null);
    try {
      setJob(await trpc.exports.create.mutate({ sessionId, format, lang, splits, athlete }));
    } catch (e) {
      setError(formErrorsOf(e).form);
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <div className="row">
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as Format)}>
            {FORMATS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Language
          <select value={lang} onChange={(e) => setLang(e.target.value as "en" | "es")}>
            <option value="en">English</option>
            <option value="es">Español</option>
          </select>
        </label>
        <label>
          Splits
          <input
            type="number"
            min={1}
            max={20}
            value={splits}
            onChange={(e) => setSplits(Math.min(20, Math.max(1, Number(e.target.value) || 1)))}
          />
        </label>
        <SeatChoice seats={seats} athlete={athlete} setAthlete={setAthlete} />
        <button type="button" disabled={pending || jobWorking(job)} onClick={start}>
          Export
        </button>
      </div>
      {job && (
        <p role="status" aria-live="polite">
          {STATE_TEXT[job.state] ?? job.state} {job.error}{" "}
          {job.downloadUrl && (
            <a href={job.downloadUrl} download>
              Download
            </a>
          )}
        </p>
      )}
      <FormError message={error} />
    </section>
  );
}

type Seat = { seat: number; name: string; own: boolean };

/** A select when there is a choice; otherwise the one seat, named. */
function SeatChoice({ seats, athlete, setAthlete }: { seats: Seat[]; athlete: number; setAthlete: (seat: number) => void }) {
  if (seats.length === 1)
    return (
      <p className="export-seat" data-testid="export-seat">
        Seat {seats[0].seat} · {seats[0].name}
      </p>
    );
  return (
    <label>
      Seat
      <select value={athlete} onChange={(e) => setAthlete(Number(e.target.value))}>
        {seats.map((s) => (
          <option key={s.seat} value={s.seat}>
            {s.seat} · {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
