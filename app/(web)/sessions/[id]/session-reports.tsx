import type { SessionView } from "./load-session-view";

/** The PDF report in each language, with the splits shown on the page. */
export function SessionReports({ view }: { view: SessionView }) {
  const base = `/sessions/${view.resultId}/report`;
  return (
    <p className="session-reports">
      Report (PDF): <a href={`${base}?lang=en&splits=${view.splitCount}`}>English</a> ·{" "}
      <a href={`${base}?lang=es&splits=${view.splitCount}`}>Español</a>
    </p>
  );
}
