import { getDb } from "@/server/db/client";
import { listOwnPaddles, listOwnVessels } from "@/server/equipment/equipment";
import { readSessionEquipment } from "@/server/results/session-equipment";
import type { SessionView } from "./load-session-view";
import { SessionEquipmentForm } from "./session-equipment-form";

/** The boat and paddle are the owner's own equipment: only the owner sees and sets them here. */
export async function SessionEquipment({ view }: { view: SessionView }) {
  if (!view.owner) return null;
  const db = getDb();
  const [boats, paddles, current] = await Promise.all([
    listOwnVessels(db, view.user.id),
    listOwnPaddles(db, view.user.id),
    readSessionEquipment(db, view.user.id, view.resultId),
  ]);
  return (
    <section aria-labelledby="equipment-heading">
      <h2 id="equipment-heading">Boat and paddle</h2>
      <SessionEquipmentForm
        resultId={view.resultId}
        boats={boats.map((b) => ({ id: b.id, label: `${b.name} (${b.vesselType})` }))}
        paddles={paddles.map((p) => ({ id: p.id, label: `${p.name} (${p.kind})` }))}
        current={current}
      />
    </section>
  );
}
