/** An application's review status as a badge: the developer portal's and the operator's pages alike. */
const LABELS = {
  not_required: "active",
  approved: "approved",
  pending: "awaiting review",
  rejected: "rejected",
} as const;

export function ReviewBadge({ status }: { status: keyof typeof LABELS }) {
  return <span className={status === "pending" || status === "rejected" ? "badge warn" : "badge"}>{LABELS[status]}</span>;
}
