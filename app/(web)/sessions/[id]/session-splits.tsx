import { SplitsTable } from "@/app/_components/splits-table";
import type { SessionView } from "./load-session-view";
import { SPLIT_COUNT } from "@/server/svc/process/track";
import { SplitsCursor } from "./splits-cursor";

/** Equal-distance splits, their number chosen in the URL. */
export function SessionSplits({ view }: { view: SessionView }) {
  const splits = view.splits;
  return (
    <section aria-labelledby="splits-heading">
      <h2 id="splits-heading">Splits</h2>
      {splits.length ? (
        <SplitsCursor>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Splits table, scrolls sideways">
            <SplitsTable splits={splits} rowIds seekable={view.timeline !== null} />
          </div>
        </SplitsCursor>
      ) : (
        <p className="muted">No processed data for splits.</p>
      )}
      {/* The number of splits after the table: on a phone the splits themselves come first. */}
      <form className="row" method="get">
        <div className="field" style={{ maxWidth: 160 }}>
          <label htmlFor="splits">Number of splits</label>
          <input id="splits" name="splits" type="number" min={SPLIT_COUNT.min} max={SPLIT_COUNT.max} defaultValue={view.splitCount} />
        </div>
        <button type="submit" className="secondary">
          Show
        </button>
      </form>
    </section>
  );
}
