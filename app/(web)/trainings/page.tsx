import type { Metadata } from "next";
import Link from "next/link";
import { FilterToggle } from "@/app/_components/filter-toggle";
import { formatDuration } from "@/app/_lib/format";
import { requireUser } from "@/server/auth/current-user";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { getDb } from "@/server/db/client";
import { readSetChoices } from "@/server/trainings/set-history";
import { listTrainings, type TrainingListItem } from "@/server/trainings/training-view";
import { TrainingStatusBadge } from "./training-status";
import { parseTrainingFilters, TrainingFiltersForm, trainingsHref } from "./training-filters";

export const metadata: Metadata = { title: "Trainings" };

/** The trainings the person may see, newest first (by recording time; by upload time until processed), 25 a page, filtered by the URL. */
export default async function TrainingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const params = await searchParams;
  const cursor = typeof params.after === "string" ? params.after : undefined;
  const filters = parseTrainingFilters(params);
  const db = getDb();
  const [{ items, nextCursor }, athletes, choices] = await Promise.all([
    listTrainings(db, user.id, cursor, undefined, filters.query),
    listAccessibleAthletes(db, user.id),
    readSetChoices(db, user.id),
  ]);
  const filtered = filters.active > 0;
  return (
    <>
      <div className="page-header">
        <h1>Trainings</h1>
        <div className="row">
          <Link className="button secondary" href="/trainings/history">
            Set history
          </Link>
          {user.canCreateSessions ? (
            <Link className="button" href="/upload?kind=training">
              Upload a training
            </Link>
          ) : null}
        </div>
      </div>
      <p className="muted">A training is one recording of an interval practice: its work sets and the rests between them.</p>
      <FilterToggle active={filters.active}>
        <TrainingFiltersForm
          values={filters.values}
          athletes={athletes.map((a) => ({ id: String(a.id), label: `${a.name} ${a.surname}`.trim() }))}
          templates={choices.templates.map((t) => ({ id: String(t.id), label: t.name }))}
        />
      </FilterToggle>
      {items.length === 0 ? (
        <p className="card empty">
          {filtered
            ? "No trainings match these filters."
            : cursor
              ? "No older trainings."
              : "No trainings yet. Upload a recording and choose “This is a training”."}
        </p>
      ) : (
        <TrainingsTable items={items} />
      )}
      <nav aria-label="Training pages" className="row pager">
        {cursor ? <Link href={trainingsHref(filters.values)}>Newest trainings</Link> : null}
        {nextCursor ? <Link href={trainingsHref(filters.values, nextCursor)}>Older trainings</Link> : null}
      </nav>
    </>
  );
}

function TrainingsTable({ items }: { items: TrainingListItem[] }) {
  return (
    <div className="table-scroll table-card">
      <table aria-label="Trainings" data-testid="trainings-list">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Training</th>
            <th scope="col">Paddler</th>
            <th scope="col">Status</th>
            <th scope="col">Work sets</th>
            <th scope="col" className="wide-only">
              Distance
            </th>
            <th scope="col" className="wide-only">
              Time
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((t) => {
            const name = t.title || t.templateName || `Training ${t.id}`;
            // The template is named only when the title does not already say it.
            const template = t.templateName && t.templateName.trim().toLowerCase() !== name.trim().toLowerCase() ? t.templateName : null;
            return (
              <tr key={t.id}>
                <td>
                  {t.date ? (
                    `${t.date} ${t.timeOfDay?.slice(0, 5) ?? ""}`
                  ) : (
                    <span className="muted">uploaded {t.uploadedAt.slice(0, 10)}</span>
                  )}
                </td>
                <td>
                  <Link href={`/trainings/${t.id}`}>{name}</Link>
                  <span className="muted">
                    {" "}
                    · {t.vesselType}
                    {template ? ` · ${template}` : ""}
                  </span>
                </td>
                <td data-testid="training-crew">{t.crew.length ? t.crew.join(" / ") : <span className="muted">—</span>}</td>
                <td>
                  <TrainingStatusBadge status={t.status} />
                </td>
                <td>{t.workSetCount ?? "—"}</td>
                <td className="wide-only">{t.distanceM !== null ? `${t.distanceM} m` : "—"}</td>
                <td className="wide-only">{t.durationMs !== null ? formatDuration(t.durationMs) : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
