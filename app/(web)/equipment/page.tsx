import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listOwnPaddles, listOwnVessels } from "@/server/equipment/equipment";
import { listReferenceData } from "@/server/reference/reference";
import { DeleteEquipmentButton, PaddleForm, VesselForm } from "./equipment-forms";

export const metadata: Metadata = { title: "Equipment" };

export default async function EquipmentPage() {
  const user = await requireUser();
  const db = getDb();
  const [boats, paddles, reference] = await Promise.all([listOwnVessels(db, user.id), listOwnPaddles(db, user.id), listReferenceData(db)]);
  return (
    <>
      <h1>Equipment</h1>
      <h2>Boats</h2>
      {boats.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Brand and model</th>
              <th scope="col" className="num">
                Weight
              </th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {boats.map((b) => (
              <tr key={b.id}>
                <td>{b.name}</td>
                <td>{b.vesselType}</td>
                <td>{`${b.brand} ${b.model}`.trim()}</td>
                <td className="num">{b.weightKg !== null ? `${b.weightKg} kg` : ""}</td>
                <td>
                  <DeleteEquipmentButton kind="vessel" id={b.id} name={b.name} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No boats yet.</p>
      )}
      <VesselForm types={reference.vessels.map((v) => ({ id: v.id, name: v.type }))} />
      <h2>Paddles</h2>
      {paddles.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Brand and model</th>
              <th scope="col" className="num">
                Length
              </th>
              <th scope="col" className="num">
                Blade area
              </th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {paddles.map((p) => (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td>{p.kind}</td>
                <td>{`${p.brand} ${p.model}`.trim()}</td>
                <td className="num">{p.lengthCm !== null ? `${p.lengthCm} cm` : ""}</td>
                <td className="num">{p.bladeAreaCm2 !== null ? `${p.bladeAreaCm2} cm²` : ""}</td>
                <td>
                  <DeleteEquipmentButton kind="paddle" id={p.id} name={p.name} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No paddles yet.</p>
      )}
      <PaddleForm />
    </>
  );
}
