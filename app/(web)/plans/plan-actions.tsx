"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** Any day to the Monday of its week (as server/plans/plan-reads.ts mondayOfDate). */
const mondayOf = (date: string) => shift(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

/** One plan's Edit (the plan form, prefilled), Move (to a date), Copy day and Delete (after a confirmation). */
export function PlanActions({ id, title, date }: { id: number; title: string; date: string }) {
  const router = useRouter();
  const [to, setTo] = useState(shift(date, 1));
  const move = useSubmit(
    () => trpc.plans.move.mutate({ id, date: to }),
    () => router.refresh(),
  );
  const copy = useSubmit(
    () => trpc.plans.copy.mutate({ from: date, to, days: 1 }),
    () => router.refresh(),
  );
  return (
    <div className="plan-actions">
      <Link className="button secondary" href={`/plans?week=${date}&edit=${id}#plan-form`} aria-label={`Edit ${title}`}>
        Edit
      </Link>
      <label className="visually-hidden" htmlFor={`plan-${id}-to`}>
        Move or copy {title} to
      </label>
      <input id={`plan-${id}-to`} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      <button type="button" className="secondary" disabled={move.pending || !to} onClick={() => move.submit()} aria-label={`Move ${title}`}>
        Move
      </button>
      <button
        type="button"
        className="secondary"
        disabled={copy.pending || !to}
        onClick={() => copy.submit()}
        aria-label={`Copy the day ${date} to the chosen date`}
      >
        Copy day
      </button>
      <ConfirmButton
        label="Delete"
        ariaLabel={`Delete ${title}`}
        buttonClassName="danger"
        title={`Delete the planned workout “${title}”?`}
        statement="The plan is deleted for good; trainings linked to it keep their sets and are matched again."
        confirmLabel="Delete plan"
        action={() => trpc.plans.delete.mutate({ id })}
        onDone={() => router.refresh()}
      />
      <FormError message={move.errors.form ?? copy.errors.form} />
    </div>
  );
}

/** Copies every plan of the week the coach may change to another week (one action): any day of the target week picks it, weekdays are kept. */
export function WeekActions({ weekStart }: { weekStart: string }) {
  const router = useRouter();
  const [to, setTo] = useState(shift(weekStart, 7));
  const [copied, setCopied] = useState<number | null>(null);
  const copy = useSubmit(
    () => trpc.plans.copy.mutate({ from: weekStart, to: mondayOf(to), days: 7 }),
    (r) => {
      setCopied(r.ids.length);
      router.refresh();
    },
  );
  return (
    <form className="row plan-week-copy" onSubmit={copy.submit}>
      <label htmlFor="copy-week-to">Copy this week to the week of</label>
      <input id="copy-week-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
      <button type="submit" className="secondary" disabled={copy.pending}>
        Copy week
      </button>
      {copied !== null ? (
        <span role="status">
          {copied} plan{copied === 1 ? "" : "s"} copied.
        </span>
      ) : null}
      <FormError message={copy.errors.form} />
    </form>
  );
}
