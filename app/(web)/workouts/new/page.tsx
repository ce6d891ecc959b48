import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { TemplateEditor } from "../template-editor";

export const metadata: Metadata = { title: "New workout template" };

export default async function NewWorkoutPage() {
  await requireUser();
  return (
    <>
      <p>
        <Link href="/workouts">← Workout templates</Link>
      </p>
      <h1>New workout template</h1>
      <TemplateEditor />
    </>
  );
}
