import type { Metadata } from "next";
import Link from "next/link";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Athletes" };

export default async function AthletesPage() {
  const user = await requireUser();
  const athletes = await listAccessibleAthletes(getDb(), user.id);
  return (
    <>
      <div className="page-header">
        <h1>Athletes</h1>
        <Link className="button" href="/athletes/new">
          Add athlete
        </Link>
      </div>
      {athletes.length === 0 ? (
        <div className="card empty">
          <p>No athletes yet. Add the paddlers whose sessions you upload; each seat of a crew names one.</p>
        </div>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Modality</th>
              <th scope="col">Date of birth</th>
              <th scope="col" className="num">
                Weight
              </th>
              <th scope="col">Subscription</th>
            </tr>
          </thead>
          <tbody>
            {athletes.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link href={`/athletes/${a.id}`}>{`${a.name} ${a.surname}`.trim()}</Link>
                </td>
                <td>{a.modality}</td>
                <td>{a.dateOfBirth ?? ""}</td>
                <td className="num">{a.weightKg !== null ? `${a.weightKg} kg` : ""}</td>
                <td>{a.subscriptionActiveUntil ? `until ${a.subscriptionActiveUntil}` : <span className="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
