import Link from "next/link";
import type { ReactNode } from "react";
import type { ApplicationView } from "@/server/applications/applications";
import { ReviewBadge } from "./review-badge";

type Origin = { id: number; origin: string; status: ApplicationView["origins"][number]["status"] };

/**
 * One application's page, as its owner (developer portal) and an operator
 * see it: the title with its review badge, a card of facts and the embed
 * origins. Each page adds its own parts in the slots: `beforeFacts`,
 * `beforeOrigins` and, after the origins, `children`.
 */
export function ApplicationDetail(props: {
  app: { name: string; reviewStatus: ApplicationView["reviewStatus"]; origins: Origin[] };
  backHref: string;
  facts: { term: string; value: ReactNode }[];
  beforeFacts?: ReactNode;
  beforeOrigins?: ReactNode;
  /** The operator's decision for an origin: a third column, and the list is shown even when empty. */
  originDecision?: (origin: Origin) => ReactNode;
  children?: ReactNode;
}) {
  const { app } = props;
  return (
    <>
      <p>
        <Link href={props.backHref}>← Applications</Link>
      </p>
      <div className="page-header">
        <h1>{app.name}</h1>
        <ReviewBadge status={app.reviewStatus} />
      </div>
      {props.beforeFacts}
      <dl className="card facts">
        {props.facts.map(({ term, value }) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {props.beforeOrigins}
      <EmbedOrigins origins={app.origins} decision={props.originDecision} />
      {props.children}
    </>
  );
}

function EmbedOrigins({ origins, decision }: { origins: Origin[]; decision?: (origin: Origin) => ReactNode }) {
  if (origins.length === 0) {
    return decision ? (
      <>
        <h2>Embed origins</h2>
        <p className="muted">None.</p>
      </>
    ) : null;
  }
  return (
    <>
      <h2>Embed origins</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Origin</th>
            <th scope="col">Status</th>
            {decision ? <th scope="col">Decision</th> : null}
          </tr>
        </thead>
        <tbody>
          {origins.map((o) => (
            <tr key={o.id}>
              <td>
                <code>{o.origin}</code>
              </td>
              <td>{o.status}</td>
              {decision ? <td>{decision(o)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
