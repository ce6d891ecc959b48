import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { ImportForm } from "./import-form";

export const metadata: Metadata = { title: "Import a workout template" };

export default async function ImportWorkoutPage() {
  await requireUser();
  return (
    <>
      <p>
        <Link href="/workouts">← Workout templates</Link>
      </p>
      <h1>Import a workout template</h1>
      <p className="muted">
        Any tool that writes the shared version-1 workout format works. The file is checked first; nothing is saved while it has problems.
      </p>
      <ImportForm />
    </>
  );
}
