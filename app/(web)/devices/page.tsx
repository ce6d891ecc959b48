import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { hardwareName, listDeviceFiles, listOwnDevices } from "@/server/devices/devices";
import { DeleteEntityButton } from "@/app/_components/delete-entity";
import { deviceDeletion } from "@/server/devices/delete-device";
import { DeleteDeviceFiles, FetchOriginal } from "./device-file-actions";
import { DeviceLabelForm } from "./device-label-form";

export const metadata: Metadata = { title: "Devices" };

export default async function DevicesPage() {
  const user = await requireUser();
  const db = getDb();
  const units = await listOwnDevices(db, user.id);
  const files = await Promise.all(units.map((unit) => listDeviceFiles(db, user.id, unit.id)));
  const deletions = await Promise.all(units.map((unit) => deviceDeletion(db, user.id, unit.id)));
  return (
    <>
      <h1>Devices</h1>
      <p className="muted">
        Sensor units are registered by the files you upload. Their serial numbers stay on the server; give each unit a name you recognise.
      </p>
      {units.length === 0 ? (
        <div className="card empty">
          <p>No devices yet: a unit appears with its first uploaded session.</p>
        </div>
      ) : (
        units.map((unit, k) => (
          <section className="card" key={unit.id} aria-label={`Device ${unit.label || unit.id}`}>
            <h2>
              {unit.label || `Unit ${unit.id}`}{" "}
              <span className="muted">
                · {hardwareName(unit.hardwareModel)} · firmware {unit.firmware}
              </span>
            </h2>
            <p className="muted">
              First seen {unit.firstSeenAt.toISOString().slice(0, 10)} · last seen {unit.lastSeenAt.toISOString().slice(0, 10)} ·{" "}
              {unit.files} file{unit.files === 1 ? "" : "s"}
            </p>
            <DeviceLabelForm id={unit.id} label={unit.label} />
            <div className="row">
              <DeleteDeviceFiles deviceId={unit.id} files={files[k].length} />
              <DeleteEntityButton
                kind="device"
                id={unit.id}
                name={deletions[k].label}
                statement={deletions[k].statement}
                refusal={deletions[k].refusal}
              />
            </div>
            <table aria-label={`Files of ${unit.label || `unit ${unit.id}`}`}>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Session</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Uploaded</th>
                  <th scope="col">Original</th>
                </tr>
              </thead>
              <tbody>
                {files[k].map((file) => (
                  <tr key={file.resultId}>
                    <td>{file.filename ?? "session.svc"}</td>
                    <td>
                      <Link href={`/sessions/${file.resultId}`}>{file.date}</Link>
                    </td>
                    <td className="num">{(file.byteSize / 1024).toFixed(0)} KiB</td>
                    <td>{file.uploadedAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                    <td>{file.filename && <FetchOriginal deviceId={unit.id} filename={file.filename} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))
      )}
    </>
  );
}
