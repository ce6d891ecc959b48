"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function ReviewApplicationForm({ id }: { id: number }) {
  const router = useRouter();
  const [note, setNote] = useState("");
  const [decision, setDecision] = useState<"approved" | "rejected">("approved");
  const { pending, errors, submit } = useSubmit(
    () => trpc.operator.reviewApplication.mutate({ id, decision, note: note || undefined }),
    () => router.refresh(),
  );
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <Field
        label="Note to the owner (optional)"
        name="note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        errors={errors.fields.note}
      />
      <div className="row">
        <button type="submit" disabled={pending} onClick={() => setDecision("approved")}>
          Approve application
        </button>
        <button type="submit" className="danger" disabled={pending} onClick={() => setDecision("rejected")}>
          Reject application
        </button>
      </div>
    </form>
  );
}

export function OriginReviewButtons({ applicationId, originId, origin }: { applicationId: number; originId: number; origin: string }) {
  const router = useRouter();
  const [decision, setDecision] = useState<"approved" | "rejected">("approved");
  const { pending, errors, submit } = useSubmit(
    () => trpc.operator.reviewOrigin.mutate({ applicationId, originId, decision }),
    () => router.refresh(),
  );
  return (
    <form className="row" onSubmit={submit}>
      <button
        type="submit"
        className="secondary"
        disabled={pending}
        aria-label={`Approve ${origin}`}
        onClick={() => setDecision("approved")}
      >
        Approve
      </button>
      <button
        type="submit"
        className="secondary"
        disabled={pending}
        aria-label={`Reject ${origin}`}
        onClick={() => setDecision("rejected")}
      >
        Reject
      </button>
      {errors.form ? <span className="field-error">{errors.form}</span> : null}
    </form>
  );
}

export function IntrospectionToggle({ id, allowed }: { id: number; allowed: boolean }) {
  const router = useRouter();
  const { pending, errors, submit } = useSubmit(
    () => trpc.operator.setIntrospection.mutate({ id, allowed: !allowed }),
    () => router.refresh(),
  );
  return (
    <div className="row">
      <button type="button" className="secondary" disabled={pending} onClick={() => void submit()}>
        {allowed ? "Disallow introspection" : "Allow introspection"}
      </button>
      {errors.form ? <span className="field-error">{errors.form}</span> : null}
    </div>
  );
}
