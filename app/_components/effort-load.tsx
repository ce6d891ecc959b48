import type { EffortLoad } from "@/server/load/load-reads";

/**
 * The training load of one session or training (docs/load.md "Pages"): the
 * stored speed load of each named paddler the viewer may see, the same figure
 * the weekly bars on their load page count; heart-rate load only where the
 * read gave it (own, or shared with this coach). Nothing when none is stored.
 */
export function EffortLoadFacts({ loads }: { loads: EffortLoad[] }) {
  if (!loads.length) return null;
  return (
    <section aria-labelledby="effort-load-heading" className="card" data-testid="effort-load">
      <h2 id="effort-load-heading">Training load</h2>
      <dl className="facts">
        {loads.map((l) => (
          <div key={l.athleteId} data-athlete={l.athleteId}>
            <dt>
              <a href={`/athletes/${l.athleteId}/load`}>{l.name}</a>
            </dt>
            <dd>
              <span data-testid="effort-speed-load">{l.speedLoad}</span> speed load
              {l.heartRateLoad !== undefined ? (
                <>
                  , <span data-testid="effort-hr-load">{l.heartRateLoad}</span> heart-rate load
                </>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
