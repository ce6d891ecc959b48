import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatDuration, formatPaceAndSpeed } from "@/app/_lib/format";
import { averageSpeedMS } from "@/server/results/figures";
import { loadOr404, parseId } from "@/app/_lib/params";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { loadTrainingView, type TrainingView } from "@/server/trainings/training-view";
import { RefreshWhilePending, TrainingStatusBadge } from "../training-status";
import { TrainingSets } from "./training-sets";
import { TrainingTimeline } from "./training-timeline";
import { SetCorrections } from "./set-corrections";
import { TrainingComments } from "./training-comments";
import { TrainingPlan } from "./training-plan";
import { loadTrainingPlan } from "@/server/plans/plan-reads";
import { EffortLoadFacts } from "@/app/_components/effort-load";
import { effortLoads } from "@/server/load/load-reads";

export const metadata: Metadata = { title: "Training" };

/** A training: its state until processed, then its facts, timeline, sets, per-set charts and set comparison. */
export default async function TrainingPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const view = await loadOr404(() => loadTrainingView(getDb(), user.id, id));
  const loads = view.status === "ready" ? await effortLoads(getDb(), user.id, { trainingId: view.id }) : [];
  const pending = view.status === "queued" || view.status === "processing";
  const plan = view.status === "ready" ? await loadTrainingPlan(getDb(), user.id, id) : null;
  return (
    <>
      <div className="page-header">
        <h1>{view.title || view.templateName || `Training ${view.id}`}</h1>
        <TrainingStatusBadge status={view.status} />
      </div>
      <RefreshWhilePending pending={pending} />
      {pending ? (
        <p className="card" role="status" data-testid="training-state">
          {view.status === "queued"
            ? "Queued: the recording is stored and waits to be processed."
            : "Processing: finding the work sets and rests."}{" "}
          This page updates by itself.
        </p>
      ) : null}
      {view.status === "failed" ? (
        <div className="card" data-testid="training-state">
          <p className="form-error" role="alert">
            This training could not be processed. {view.failureMessage}
          </p>
          <p className="muted">Reason code: {view.failureCode}</p>
        </div>
      ) : null}
      {view.status === "ready" ? <ReadyTraining view={view} /> : null}
      {plan ? <TrainingPlan trainingId={view.id} plan={plan} /> : null}
      <EffortLoadFacts loads={loads} />
      <TrainingComments view={view} userId={user.id} />
      <TrainingDetails view={view} />
      <p className="muted">
        <Link href="/trainings">Back to trainings</Link>
      </p>
    </>
  );
}

function ReadyTraining({ view }: { view: TrainingView }) {
  const s = view.summary;
  const work = view.sets.filter((x) => x.kind === "work");
  const workMetres = work.reduce((sum, x) => sum + x.distanceM, 0);
  return (
    <>
      <p className="visually-hidden" role="status">
        Ready: {view.workSetCount} work sets.
      </p>
      <dl className="card facts" data-testid="training-facts">
        <div>
          <dt>Date</dt>
          <dd>
            {view.date} {view.timeOfDay?.slice(0, 5)}
          </dd>
        </div>
        <div>
          <dt>Work sets</dt>
          <dd data-testid="work-set-count">{view.workSetCount}</dd>
        </div>
        <div>
          <dt>Work distance</dt>
          <dd>{workMetres} m</dd>
        </div>
        <div>
          <dt>First set start to last set end</dt>
          <dd>
            {view.distanceM} m in {view.durationMs !== null ? formatDuration(view.durationMs) : "—"}
          </dd>
        </div>
        {s ? (
          <>
            <div>
              <dt>Average pace (whole span)</dt>
              <dd>{formatPaceAndSpeed(averageSpeedMS(s.distance_m, s.duration_ms))}</dd>
            </div>
            <div>
              <dt>Strokes</dt>
              <dd>{s.stroke_count}</dd>
            </div>
          </>
        ) : null}
        <div>
          <dt>Boat</dt>
          <dd>{view.vesselType}</dd>
        </div>
      </dl>
      {view.templateName ? (
        <section className="card" aria-labelledby="template-heading">
          <h2 id="template-heading">Template: {view.templateName}</h2>
          {view.unmatchedSteps.length === 0 && !work.some((w) => w.extra) ? (
            <p>Every work step of the template was found, and every work set matches a step.</p>
          ) : (
            <ul>
              {view.unmatchedSteps.length ? (
                <li>Steps with no set found: {view.unmatchedSteps.map((u) => `work ${u.workNumber} (${u.label})`).join(", ")}.</li>
              ) : null}
              {work.some((w) => w.extra) ? (
                <li>
                  Sets beyond the template:{" "}
                  {work
                    .filter((w) => w.extra)
                    .map((w) => `work ${w.workNumber}`)
                    .join(", ")}
                  .
                </li>
              ) : null}
            </ul>
          )}
        </section>
      ) : null}
      <TrainingTimeline sets={view.sets} />
      <TrainingSets
        sets={view.sets}
        hasTemplate={view.templateName !== null}
        who={[view.crew.map((c) => c.name).join(" / ") || view.athleteName, view.date].filter(Boolean).join(" · ")}
      />
      {view.correcting ? (
        <SetCorrections trainingId={view.id} sets={view.sets} correcting={view.correcting} needsReview={view.needsReview} />
      ) : null}
      {!view.correcting && view.needsReview ? (
        <p className="review-notice" role="note">
          Needs review: this training was processed again with a newer core and its corrected sets were kept as they were.
        </p>
      ) : null}
      {view.warnings.length ? (
        <section className="card" aria-labelledby="quality-heading">
          <h2 id="quality-heading">Recording quality</h2>
          <ul>
            {view.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function TrainingDetails({ view }: { view: TrainingView }) {
  return (
    <section className="card" aria-labelledby="details-heading">
      <h2 id="details-heading">Upload</h2>
      <dl className="facts">
        <div>
          <dt>File</dt>
          <dd>{view.originalFilename ?? "—"}</dd>
        </div>
        <div>
          <dt>Uploaded</dt>
          <dd>{view.uploadedAt.slice(0, 16).replace("T", " ")} UTC</dd>
        </div>
        <div>
          <dt>Track</dt>
          <dd>{view.trackName ?? "—"}</dd>
        </div>
        <div>
          <dt>{view.crew.length > 1 ? "Crew, from the bow" : "Paddler"}</dt>
          <dd>{view.crew.length > 1 ? view.crew.map((c) => `${c.seat}. ${c.name}`).join(", ") : (view.athleteName ?? "—")}</dd>
        </div>
        <div>
          <dt>Sensitivity</dt>
          <dd>{view.sensitivity}</dd>
        </div>
        <div>
          <dt>Processing core</dt>
          <dd>{view.processingCoreVersion !== null ? `version ${view.processingCoreVersion}` : "—"}</dd>
        </div>
      </dl>
      {view.notes ? <p className="pre-line">{view.notes}</p> : null}
    </section>
  );
}
