import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { loadOr404, parseId } from "@/app/_lib/params";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { editorText, getOwnTemplate } from "@/server/workouts/templates";
import { TemplateActions } from "../template-actions";
import { TemplateEditor } from "../template-editor";

export const metadata: Metadata = { title: "Workout template" };

export default async function WorkoutPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ saved?: string }>;
}) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const template = await loadOr404(() => getOwnTemplate(getDb(), user.id, id));
  const saved = (await searchParams).saved === "1";
  return (
    <>
      <p>
        <Link href="/workouts">← Workout templates</Link>
      </p>
      <h1>{template.name}</h1>
      {saved ? (
        <p className="notice" role="status">
          Saved.
        </p>
      ) : null}
      <TemplateActions id={template.id} name={template.name} />
      {/* Keyed by the saved time: after a save the editor starts from the stored text. */}
      <TemplateEditor
        key={template.updatedAt.toISOString()}
        template={{ id: template.id, name: template.name, text: editorText(template.template) }}
      />
    </>
  );
}
