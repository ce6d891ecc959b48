"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { inspectTemplateText, TEMPLATE_LIMITS } from "@/server/workouts/template";
import { describeTotals } from "../describe";
import { StepPreview, TemplateProblems } from "../template-editor";

/** Import: paste the JSON or choose a file; problems by path, or a preview and "Save". */
export function ImportForm() {
  const router = useRouter();
  const [text, setText] = useState("");
  const [name, setName] = useState("");
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const inspection = useMemo(() => (text.trim() ? inspectTemplateText(text) : null), [text]);
  const { pending, errors, submit, setErrors } = useSubmit(
    () => trpc.workouts.import.mutate({ text, name: name.trim() || undefined }),
    (saved) => {
      router.push(`/workouts/${saved.id}?saved=1`);
      router.refresh();
    },
  );
  async function readFile(file: File | undefined) {
    if (!file) return;
    setErrors({ form: null, fields: {} });
    // A larger file is not even read: one problem at $, as the server would say.
    if (file.size > TEMPLATE_LIMITS.maxBytes) {
      setFileNote(null);
      setText("");
      setFileProblem(`$: the file is ${file.size} bytes; at most ${TEMPLATE_LIMITS.maxBytes} are accepted`);
      return;
    }
    setFileProblem(null);
    setFileNote(`${file.name}, ${file.size} bytes`);
    setText(await file.text());
  }
  const problems = fileProblem
    ? [fileProblem]
    : (errors.fields.text ?? (inspection && !inspection.valid ? inspection.problems.map((p) => `${p.path}: ${p.message}`) : []));
  return (
    <form className="card stack" onSubmit={submit} aria-label="Import a workout template">
      <FormError message={errors.form} />
      <div className="field">
        <label htmlFor="import-file">A version-1 workout file (.json)</label>
        <input id="import-file" type="file" accept=".json,application/json" onChange={(e) => readFile(e.target.files?.[0])} />
        {fileNote ? <p className="hint">{fileNote}</p> : null}
      </div>
      <div className="field">
        <label htmlFor="import-json">Or paste the JSON</label>
        <textarea
          id="import-json"
          className="code-input"
          rows={12}
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setFileProblem(null);
            if (errors.fields.text) setErrors({ form: null, fields: {} });
          }}
          aria-describedby="template-problems"
        />
      </div>
      <Field
        label="Name (optional: else the file's own)"
        name="name"
        maxLength={128}
        value={name}
        onChange={(e) => setName(e.target.value)}
        errors={errors.fields.name}
      />
      <TemplateProblems problems={problems} />
      {inspection?.valid ? <StepPreview steps={inspection.template.steps} totals={describeTotals(inspection.totals)} /> : null}
      <div className="row">
        <button type="submit" disabled={pending || Boolean(fileProblem) || !inspection?.valid}>
          Save template
        </button>
      </div>
    </form>
  );
}
