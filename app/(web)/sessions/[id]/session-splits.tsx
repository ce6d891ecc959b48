import { SplitsTable } from "@/app/_components/splits-table";
import { splitsOf } from "@/server/results/result-analysis";
import type { SessionView } from "./load-session-view";

/** Equal-distance splits, their number chosen in the URL. */
export function SessionSplits({ view }: { view: SessionView }) {
  const splits = view.analysis && view.detail.strokes.length ? splitsOf(view.analysis, view.detail, view.splitCount) : [];
  return (
    <section aria-labelledby="splits-heading">
      <h2 id="splits-heading">Splits</h2>
      <form className="row" method="get">
        <div className="field" style={{ maxWidth: 160 }}>
          <label htmlFor="splits">Number of splits</label>
          <input id="splits" name="splits" type="number" min={1} max={20} defaultValue={view.splitCount} />
        </div>
        <button type="submit" className="secondary">
          Show
        </button>
      </form>
      {splits.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Splits table, scrolls sideways">
          <SplitsTable splits={splits} />
        </div>
      ) : (
        <p className="muted">No processed data for splits.</p>
      )}
    </section>
  );
}
