"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import type { SpeedZone } from "@/server/load/zones";

/** The zone editor (docs/load.md "Pages"): where zones 2–6 start, in % of the reference speed; saving recomputes the athlete's loads. */
export function ZoneEditor({ athleteId, zones, custom }: { athleteId: number; zones: readonly SpeedZone[]; custom: boolean }) {
  const router = useRouter();
  const [bounds, setBounds] = useState(zones.slice(1).map((z) => String(z.fromPct)));
  const save = useSubmit(
    () => trpc.load.setZones.mutate({ athleteId, lowerPct: bounds.map(Number) }),
    () => router.refresh(),
  );
  const reset = useSubmit(
    () => trpc.load.resetZones.mutate({ athleteId }),
    () => router.refresh(),
  );
  return (
    <form className="card stack zone-editor" onSubmit={save.submit} noValidate data-testid="zone-editor">
      <p className="muted">
        {custom ? "This athlete's own zones." : "The default zones."} Each zone starts at a percentage of the athlete&apos;s reference speed
        (their best 500 m of the last 90 days in the boat class). Saving recomputes every stored load of the athlete.
      </p>
      {/* The bounds' own message ("Each zone must start above the one before it.") rather than a pointer to highlighted fields. */}
      <FormError message={save.errors.fields.lowerPct?.join(" ") ?? save.errors.form ?? reset.errors.form} />
      <div className="zone-grid">
        {zones.map((z, k) => (
          <label key={z.zone} className="zone-field">
            <span>
              {z.zone}. {z.name} <span className="muted">×{z.weight}</span>
            </span>
            {k === 0 ? (
              <span className="muted">from 0 %</span>
            ) : (
              <span className="row">
                from
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={200}
                  name={`zone-${z.zone}`}
                  aria-label={`Zone ${z.zone} starts at, % of the reference speed`}
                  value={bounds[k - 1]}
                  onChange={(e) => setBounds(bounds.map((b, j) => (j === k - 1 ? e.target.value : b)))}
                />
                %
              </span>
            )}
          </label>
        ))}
      </div>
      <div className="row">
        <button type="submit" disabled={save.pending || reset.pending}>
          Save zones
        </button>
        <button type="button" className="secondary" disabled={save.pending || reset.pending} onClick={() => reset.submit()}>
          Reset to defaults
        </button>
      </div>
    </form>
  );
}
