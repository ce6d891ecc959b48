"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { inspectTemplateText } from "@/server/workouts/template";
import { describeStep, describeTotals } from "./describe";

export const EXAMPLE_TEMPLATE = JSON.stringify(
  {
    version: 1,
    boat_class: "K1",
    steps: [
      {
        repeat: 6,
        steps: [
          { kind: "work", distance_m: 500, targets: { rate_spm: 90 } },
          { kind: "rest", duration_s: 120 },
        ],
      },
    ],
  },
  null,
  2,
);

/**
 * The template editor: a name and the version-1 JSON. Every keystroke is
 * inspected in the browser with the same validator as the server, so the
 * problems (each with its JSON path) and a readable preview of the steps show
 * before saving; the server checks again and its problems show in the same list.
 */
export function TemplateEditor({ template }: { template?: { id: number; name: string; text: string } }) {
  const router = useRouter();
  const [name, setName] = useState(template?.name ?? "");
  const [text, setText] = useState(template?.text ?? EXAMPLE_TEMPLATE);
  const inspection = useMemo(() => inspectTemplateText(text), [text]);
  const { pending, errors, submit, setErrors } = useSubmit(
    () => (template ? trpc.workouts.update.mutate({ id: template.id, name, text }) : trpc.workouts.create.mutate({ name, text })),
    (saved) => {
      router.push(`/workouts/${saved.id}?saved=1`);
      router.refresh();
    },
  );
  const serverProblems = errors.fields.text ?? [];
  return (
    <form className="card stack" onSubmit={submit} aria-label={template ? "Edit workout template" : "New workout template"}>
      <FormError message={errors.form} />
      <Field
        label="Name"
        name="name"
        required
        maxLength={128}
        value={name}
        onChange={(e) => setName(e.target.value)}
        errors={errors.fields.name}
      />
      <div className="field">
        <label htmlFor="template-json">Template (version-1 JSON)</label>
        <textarea
          id="template-json"
          name="text"
          className="code-input"
          rows={18}
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            // The server's problems were about the text as it was: the live inspection takes over.
            if (errors.fields.text) setErrors({ form: null, fields: {} });
          }}
          aria-describedby="template-json-hint template-problems"
          aria-invalid={!inspection.valid || serverProblems.length ? true : undefined}
        />
        <p id="template-json-hint" className="hint">
          Steps are <code>{'{"kind": "work" | "rest", "distance_m" | "duration_s"}'}</code> with optional <code>targets</code> (
          <code>rate_spm</code>, <code>pace_s_per_500m</code>, <code>zone</code>); repeat a group with{" "}
          <code>{'{"repeat": 6, "steps": [...]}'}</code>. See the <a href="/api/docs/workout-template.schema.json">JSON Schema</a>.
        </p>
      </div>
      <TemplateProblems
        problems={
          serverProblems.length ? serverProblems : inspection.valid ? [] : inspection.problems.map((p) => `${p.path}: ${p.message}`)
        }
      />
      {inspection.valid ? <StepPreview steps={inspection.template.steps} totals={describeTotals(inspection.totals)} /> : null}
      <div className="row">
        <button type="submit" disabled={pending || !inspection.valid}>
          {template ? "Save changes" : "Create template"}
        </button>
      </div>
    </form>
  );
}

/** Problems by JSON path; announced as they change. */
export function TemplateProblems({ problems }: { problems: string[] }) {
  return (
    <div id="template-problems" aria-live="polite">
      {problems.length ? (
        <div className="form-error" data-testid="template-problems">
          <p>{problems.length === 1 ? "1 problem" : `${problems.length} problems`} to fix before saving:</p>
          <ul>
            {problems.map((line, k) => {
              const split = line.indexOf(": ");
              return (
                <li key={k}>
                  <code>{split > 0 ? line.slice(0, split) : "$"}</code> {split > 0 ? line.slice(split + 2) : line}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** The expanded steps in order, as a coach reads them. */
export function StepPreview({ steps, totals }: { steps: Parameters<typeof describeStep>[0][]; totals: string }) {
  return (
    <section aria-labelledby="preview-heading" data-testid="step-preview">
      <h2 id="preview-heading">Preview</h2>
      <p className="muted">{totals}</p>
      <ol className="step-list">
        {steps.map((step, k) => (
          <li key={k} className={step.kind === "work" ? "step-work" : "step-rest"}>
            {describeStep(step)}
          </li>
        ))}
      </ol>
    </section>
  );
}
