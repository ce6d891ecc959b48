import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { templateTotals } from "@/server/workouts/template";
import { listOwnTemplates } from "@/server/workouts/templates";
import { describeTotals } from "./describe";
import { TemplateActions } from "./template-actions";

export const metadata: Metadata = { title: "Workouts" };

export default async function WorkoutsPage() {
  const user = await requireUser();
  const templates = (await listOwnTemplates(getDb(), user.id)).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <h1>Workout templates</h1>
      <p className="muted">
        Planned interval practices in the shared version-1 format: trainings are matched against them, and other tools read and write the
        same JSON.
      </p>
      <div className="row">
        <Link className="button" href="/workouts/new">
          New template
        </Link>
        <Link className="button secondary" href="/workouts/import">
          Import a file
        </Link>
      </div>
      {templates.length ? (
        <div className="table-scroll table-card">
          <table aria-label="Workout templates" data-testid="workout-list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Boat</th>
                <th scope="col">Work</th>
                <th scope="col" className="wide-only">
                  Changed
                </th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {templates.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link href={`/workouts/${t.id}`}>{t.name}</Link>
                  </td>
                  <td>{t.template.boat_class ?? "any"}</td>
                  <td>{describeTotals(templateTotals(t.template.steps))}</td>
                  <td className="wide-only">{t.updatedAt.toISOString().slice(0, 10)}</td>
                  <td>
                    <TemplateActions id={t.id} name={t.name} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div className="card empty" data-testid="workouts-empty">
          <h2>No workout templates yet</h2>
          <p>Write one, or import a file another tool made (for example a coach&apos;s 6 × 500 m).</p>
        </div>
      )}
    </>
  );
}
