import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatDuration } from "@/app/_lib/format";
import { loadOr404, parseId } from "@/app/_lib/params";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { getStoredAnalysis, splitsOf } from "@/server/results/result-analysis";
import { getResultDetail } from "@/server/results/result-detail";
import { readSessionEquipment } from "@/server/results/session-equipment";
import { listOwnPaddles, listOwnVessels } from "@/server/equipment/equipment";
import { listShareLinks } from "@/server/shares/share-links";
import { SessionActions, ShareLinks } from "./session-actions";
import { SessionEquipmentForm } from "./session-equipment-form";
import { ExportMenu } from "./export-menu";
import { SplitsTable } from "@/app/_components/splits-table";
import { StrokeCharts } from "@/app/_components/stroke-charts";
import { SessionReplay } from "@/app/_components/replay-player/session-replay";

export const metadata: Metadata = { title: "Session" };

export default async function SessionPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const splitCount = Math.min(20, Math.max(1, Number((await searchParams).splits) || 4));
  const db = getDb();
  const detail = await loadOr404(() => getResultDetail(db, user.id, id));
  const [analysis, shares] = await Promise.all([getStoredAnalysis(db, id), listShareLinks(db, user.id, id)]);
  const s = detail.summary;
  const owner = s.ownerId === user.id;
  // The boat and paddle are the owner's own equipment: only the owner sees and sets them here.
  const equipment = owner ? await Promise.all([listOwnVessels(db, user.id), listOwnPaddles(db, user.id), readSessionEquipment(db, user.id, id)]) : null;
  const kayak = s.vesselType.startsWith("K");
  const splits = analysis && detail.strokes.length ? splitsOf(analysis, detail, splitCount) : [];
  const crew = detail.crew.map((c) => `${(c.athleteId !== null ? c.athleteName : c.externalName) ?? ""} ${(c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? ""}`.trim() + (c.athleteId === null ? " (external)" : ""));
  return (
    <>
      <div className="page-header">
        <h1>
          {s.vesselType} · {s.distanceM} m · {formatDuration(s.durationMs)}
        </h1>
        <SessionActions resultId={id} canDelete={user.canDeleteSessions && owner} />
        <ExportMenu sessionId={id} seats={detail.crew.length} />
      </div>
      <p>
        <Link href={`/sessions/${id}/analysis`}>Analysis: pacing, start, finish, side balance and more</Link>
      </p>
      <dl className="card facts">
        <div>
          <dt>Date</dt>
          <dd>
            {s.date} {s.timeOfDay.slice(0, 5)}
          </dd>
        </div>
        <div>
          <dt>Track</dt>
          <dd>{s.trackName}</dd>
        </div>
        <div>
          <dt>Crew</dt>
          <dd>{crew.join(", ")}</dd>
        </div>
        <div>
          <dt>Category · pace</dt>
          <dd>
            {s.categoryName} · {s.paceName}
          </dd>
        </div>
        {analysis ? (
          <>
            <div>
              <dt>Strokes</dt>
              <dd>{analysis.summary.stroke_count}</dd>
            </div>
            <div>
              <dt>Average rate</dt>
              <dd>{analysis.summary.avg_rate ?? "—"} spm</dd>
            </div>
            <div>
              <dt>Average speed</dt>
              <dd>{analysis.summary.avg_speed.toFixed(2)} m/s</dd>
            </div>
            <div>
              <dt>Distance per stroke</dt>
              <dd>{analysis.summary.avg_stroke_distance?.toFixed(2) ?? "—"} m</dd>
            </div>
          </>
        ) : null}
        {s.competition || s.description ? (
          <div>
            <dt>Notes</dt>
            <dd>{[s.competition, s.description].filter(Boolean).join(" · ")}</dd>
          </div>
        ) : null}
      </dl>
      {equipment ? (
        <>
          <h2 id="equipment-heading">Boat and paddle</h2>
          <SessionEquipmentForm
            resultId={id}
            boats={equipment[0].map((b) => ({ id: b.id, label: `${b.name} (${b.vesselType})` }))}
            paddles={equipment[1].map((p) => ({ id: p.id, label: `${p.name} (${p.kind})` }))}
            current={equipment[2]}
          />
        </>
      ) : null}
      <p>
        Report (PDF):{" "}
        <a href={`/sessions/${id}/report?lang=en&splits=${splitCount}`}>English</a> · <a href={`/sessions/${id}/report?lang=es&splits=${splitCount}`}>Español</a>
      </p>

      <h2>Splits</h2>
      <form className="row" method="get">
        <div className="field" style={{ maxWidth: 160 }}>
          <label htmlFor="splits">Number of splits</label>
          <input id="splits" name="splits" type="number" min={1} max={20} defaultValue={splitCount} />
        </div>
        <button type="submit" className="secondary">
          Show
        </button>
      </form>
      {splits.length ? (
        <SplitsTable splits={splits} />
      ) : (
        <p className="muted">No processed data for splits.</p>
      )}

      <h2>Along the distance</h2>
      <StrokeCharts
        points={detail.strokes.map((stroke) => ({
          distance: stroke.distanceM ?? 0,
          speed: stroke.filteredSpeedMS,
          rate: stroke.rateSpm,
          strokeDistance: stroke.strokeDistanceM ?? stroke.leftStrokeDistanceM ?? stroke.rightStrokeDistanceM,
        }))}
      />

      <SessionReplay resultId={id} modelClass={s.vesselType} artifactUrl={`/sessions/${id}/replay`} />

      <h2>Strokes ({detail.strokes.length})</h2>
      <div className="table-scroll">
        <table aria-label="Strokes">
          <thead>
            <tr>
              <th scope="col" className="num">#</th>
              {kayak ? <th scope="col">Side</th> : null}
              <th scope="col" className="num">Distance</th>
              <th scope="col" className="num">Speed</th>
              <th scope="col" className="num">Rate</th>
              <th scope="col" className="num">Stroke distance</th>
              <th scope="col" className="num">Accel max / min</th>
              <th scope="col" className="num">Pitch / roll</th>
            </tr>
          </thead>
          <tbody>
            {detail.strokes.map((stroke) => (
              <tr key={stroke.strokeIndex}>
                <td className="num">{stroke.strokeIndex + 1}</td>
                {kayak ? <td>{stroke.side}</td> : null}
                <td className="num">{stroke.distanceM?.toFixed(1)} m</td>
                <td className="num">{stroke.filteredSpeedMS?.toFixed(2)}</td>
                <td className="num">{stroke.rateSpm?.toFixed(1)}</td>
                <td className="num">{(stroke.strokeDistanceM ?? stroke.leftStrokeDistanceM ?? stroke.rightStrokeDistanceM)?.toFixed(2)} m</td>
                <td className="num">
                  {stroke.maxAccelXMS2?.toFixed(1)} / {stroke.minAccelXMS2?.toFixed(1)}
                </td>
                <td className="num">
                  {stroke.maxPitchDeg?.toFixed(1)}° / {stroke.maxRollDeg?.toFixed(1)}°
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Share links</h2>
      <ShareLinks resultId={id} links={shares.map((l) => ({ id: l.id, origin: l.origin, createdAt: l.createdAt.toISOString().slice(0, 16).replace("T", " "), revoked: l.revokedAt !== null }))} />
      <p className="muted">
        <Link href="/">Back to sessions</Link>
      </p>
    </>
  );
}
