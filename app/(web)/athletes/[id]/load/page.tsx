import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { loadOr404, parseId } from "@/app/_lib/params";
import { getAccessibleAthlete } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { athleteLoadView } from "@/server/load/load-reads";
import { athleteZoneSettings } from "@/server/load/store-load";
import { FitnessChart, WeeklyLoadBars } from "./load-charts";
import { ZoneEditor } from "./zone-editor";

export const metadata: Metadata = { title: "Training load" };

/** An athlete's training load (docs/load.md "Pages"): weekly bars, fitness, fatigue and form; the zone editor for their manager. */
export default async function AthleteLoadPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const db = getDb();
  const today = new Date().toISOString().slice(0, 10);
  const view = await loadOr404(() => athleteLoadView(db, user.id, id, today));
  const athlete = await loadOr404(() => getAccessibleAthlete(db, user.id, id));
  const zones = athlete.editable ? await athleteZoneSettings(db, id) : null;
  return (
    <>
      <p>
        <Link href={`/athletes/${id}`}>← {view.name}</Link>
      </p>
      <h1>Training load: {view.name}</h1>
      <dl className="card facts" data-testid="load-facts">
        <div>
          <dt>This week</dt>
          <dd data-testid="load-this-week">{view.weeks.at(-1)!.speedLoad}</dd>
        </div>
        {view.heartRateVisible ? (
          <div>
            <dt>Heart-rate load this week</dt>
            <dd data-testid="load-hr-this-week">{view.weeks.at(-1)!.heartRateLoad}</dd>
          </div>
        ) : null}
        <div>
          <dt>Fitness</dt>
          <dd>{view.today.fitness}</dd>
        </div>
        <div>
          <dt>Fatigue</dt>
          <dd>{view.today.fatigue}</dd>
        </div>
        <div>
          <dt>Form</dt>
          <dd data-testid="load-form">{view.today.form}</dd>
        </div>
      </dl>
      <WeeklyLoadBars weeks={view.weeks} heartRate={view.heartRateVisible} />
      <FitnessChart series={view.series} />
      <p className="muted">
        Speed load: minutes in each speed zone × the zone&apos;s weight. Fitness and fatigue: the daily load averaged over 42 and 7 days;
        form is fitness minus fatigue.
      </p>
      {zones ? (
        <>
          <h2>Speed zones</h2>
          <ZoneEditor key={zones.zones.map((z) => z.fromPct).join(",")} athleteId={id} zones={zones.zones} custom={zones.custom} />
        </>
      ) : null}
    </>
  );
}
