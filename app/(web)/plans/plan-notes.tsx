/** A plan's notes for its athletes (docs/plans.md "Notes"), line breaks kept; nothing without notes. */
export function PlanNotes({ notes, testId }: { notes: string | null | undefined; testId: string }) {
  if (!notes) return null;
  return (
    <p className="plan-notes" data-testid={testId}>
      Notes: {notes}
    </p>
  );
}
