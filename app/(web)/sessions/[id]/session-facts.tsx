import { crewMemberName, type SessionView } from "./load-session-view";

/** When, where, who: the session's context, after its data (docs/web-app.md "The session page: data first"). */
export function SessionFacts({ view }: { view: SessionView }) {
  const s = view.detail.summary;
  return (
    <dl className="card facts" aria-label="About the session">
      <div>
        <dt>Date</dt>
        <dd>
          {s.date} {s.timeOfDay.slice(0, 5)}
        </dd>
      </div>
      <div>
        <dt>Track</dt>
        <dd>{s.trackName}</dd>
      </div>
      <div>
        <dt>Crew</dt>
        <dd>{view.detail.crew.map(crewMemberName).join(", ")}</dd>
      </div>
      <div>
        <dt>Category · pace</dt>
        <dd>
          {s.categoryName} · {s.paceName}
        </dd>
      </div>
      {s.important ? (
        <div>
          <dt>Flag</dt>
          <dd>
            <span className="badge warn">Important</span>
          </dd>
        </div>
      ) : null}
      {s.competition || s.description ? (
        <div>
          <dt>Notes</dt>
          <dd>{[s.competition, s.description].filter(Boolean).join(" · ")}</dd>
        </div>
      ) : null}
    </dl>
  );
}
