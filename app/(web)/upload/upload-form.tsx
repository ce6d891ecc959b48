"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError } from "@/app/_components/form";

type Option = { id: number; name: string };
type Seat = { kind: "internal"; athleteId: number | "" } | { kind: "external"; name: string; surname: string; weight: string };

interface Props {
  vessels: { id: number; type: string; npeople: number }[];
  categories: Option[];
  paces: Option[];
  tracks: Option[];
  athletes: (Option & { active: boolean })[];
}

function Select({ label, name, value, onChange, options, errors }: { label: string; name: string; value: number | ""; onChange: (v: number) => void; options: Option[]; errors?: string[] }) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select id={name} value={value} onChange={(e) => onChange(Number(e.target.value))} aria-invalid={errors?.length ? true : undefined} aria-describedby={errors?.length ? `${name}-error` : undefined}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {errors?.length ? (
        <p className="field-error" id={`${name}-error`}>
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** The upload form: file, effort, boat and crew in boat order, optional notes and weather; posts with a progress bar. */
export function UploadForm({ vessels, categories, paces, tracks, athletes }: Props) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<"distance" | "duration">("distance");
  const [distance, setDistance] = useState("500");
  const [durationS, setDurationS] = useState("");
  const [vesselId, setVesselId] = useState<number | "">("");
  const [trackId, setTrackId] = useState<number | "">(tracks[0]?.id ?? "");
  const [categoryId, setCategoryId] = useState<number | "">(categories[0]?.id ?? "");
  const [paceId, setPaceId] = useState<number | "">(paces[0]?.id ?? "");
  const [seats, setSeats] = useState<Seat[]>([]);
  const [competition, setCompetition] = useState("");
  const [description, setDescription] = useState("");
  const [important, setImportant] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<{ form: string | null; fields: Record<string, string[]>; detail?: string }>({ form: null, fields: {} });
  /** The session already made from the chosen file (409 from /api/uploads). */
  const [duplicateOf, setDuplicateOf] = useState<number | null>(null);

  const vessel = vessels.find((v) => v.id === vesselId);
  function chooseVessel(id: number) {
    setVesselId(id);
    const size = vessels.find((v) => v.id === id)?.npeople ?? 0;
    setSeats((old) => Array.from({ length: size }, (_, i) => old[i] ?? { kind: "internal", athleteId: "" }));
  }
  const updateSeat = (index: number, seat: Seat) => setSeats((all) => all.map((s, i) => (i === index ? seat : s)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const fieldErrors: Record<string, string[]> = {};
    if (!file) fieldErrors.file = ["Choose the .svc file from your sensor unit"];
    if (vesselId === "") fieldErrors.vessel_id = ["Choose the boat"];
    if (Object.keys(fieldErrors).length) return setErrors({ form: "Please correct the highlighted fields.", fields: fieldErrors });

    const metadata = {
      ...(mode === "distance" ? { distance: Number(distance) } : { duration_ms: Math.round(Number(durationS) * 1000) }),
      vessel_id: vesselId,
      track_id: trackId,
      category_id: categoryId,
      pace_id: paceId,
      athletes: seats.map((s) =>
        s.kind === "internal" ? (s.athleteId === "" ? null : s.athleteId) : { name: s.name, surname: s.surname, ...(s.weight ? { weight: Number(s.weight) } : {}) },
      ),
      competition,
      description,
      important,
    };
    const body = new FormData();
    body.append("metadata", JSON.stringify(metadata));
    body.append("file", file!);

    // XMLHttpRequest, not fetch: it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/uploads");
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onerror = () => {
      setProgress(null);
      setErrors({ form: "The upload failed. Check your connection and try again.", fields: {} });
    };
    xhr.onload = () => {
      setProgress(null);
      const response = JSON.parse(xhr.responseText || "{}");
      if (xhr.status === 201) {
        router.push(`/sessions/${response.data.id}`);
        return;
      }
      if (xhr.status === 409 && typeof response.existing_result_id === "number") {
        setDuplicateOf(response.existing_result_id);
        setErrors({ form: null, fields: {} });
        return;
      }
      // The server words its errors as this form labels its fields; its technical sentence is the detail.
      setErrors({ form: response.message ?? "The upload failed.", fields: response.field_errors ?? {}, detail: typeof response.detail === "string" ? response.detail : undefined });
    };
    setErrors({ form: null, fields: {} });
    setDuplicateOf(null);
    setProgress(0);
    xhr.send(body);
  }

  const f = errors.fields;
  return (
    <form className="stack card" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      {errors.detail ? (
        <details className="error-details" key={errors.detail}>
          <summary>Details</summary>
          <p>
            <code>{errors.detail}</code>
          </p>
        </details>
      ) : null}
      {duplicateOf !== null ? (
        <p className="form-error" role="alert">
          This file was already uploaded. <a href={`/sessions/${duplicateOf}`}>Open the existing session</a>.
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="file">Session file (.svc)</label>
        <input id="file" name="file" type="file" accept=".svc" onChange={(e) => setFile(e.target.files?.[0] ?? null)} aria-invalid={f.file ? true : undefined} aria-describedby={f.file ? "file-error" : undefined} />
        {f.file ? (
          <p className="field-error" id="file-error">
            {f.file.join(" ")}
          </p>
        ) : null}
      </div>

      <fieldset>
        <legend>Effort</legend>
        <label className="checkbox">
          <input type="radio" name="mode" checked={mode === "distance"} onChange={() => setMode("distance")} /> A distance
        </label>
        <label className="checkbox">
          <input type="radio" name="mode" checked={mode === "duration"} onChange={() => setMode("duration")} /> A duration
        </label>
        {mode === "distance" ? (
          <Field label="Distance (m)" name="distance" inputMode="numeric" value={distance} onChange={(e) => setDistance(e.target.value)} errors={f.distance} hint="50 to 1000 m." />
        ) : (
          <Field label="Duration (s)" name="duration" inputMode="decimal" value={durationS} onChange={(e) => setDurationS(e.target.value)} errors={f.duration_ms ?? f.distance} hint="Up to 300 s." />
        )}
      </fieldset>

      <div className="row">
        <Select label="Boat" name="vessel_id" value={vesselId} onChange={chooseVessel} options={vessels.map((v) => ({ id: v.id, name: v.type }))} errors={f.vessel_id} />
        <Select label="Track" name="track_id" value={trackId} onChange={setTrackId} options={tracks} errors={f.track_id} />
        <Select label="Category" name="category_id" value={categoryId} onChange={setCategoryId} options={categories} errors={f.category_id} />
        <Select label="Pace" name="pace_id" value={paceId} onChange={setPaceId} options={paces} errors={f.pace_id} />
      </div>

      {vessel ? (
        <fieldset>
          <legend>Crew of the {vessel.type}, from the bow</legend>
          {f.athletes ? (
            <p className="field-error" role="alert">
              {f.athletes.join(" ")}
            </p>
          ) : null}
          {seats.map((seat, i) => (
            <div className="row" key={i}>
              <div className="field">
                <label htmlFor={`seat-${i}`}>Seat {i + 1}</label>
                <select
                  id={`seat-${i}`}
                  aria-invalid={f[`athletes[${i}]`] ? true : undefined}
                  aria-describedby={f[`athletes[${i}]`] ? `seat-${i}-error` : undefined}
                  value={seat.kind === "internal" ? seat.athleteId : "external"}
                  onChange={(e) =>
                    updateSeat(i, e.target.value === "external" ? { kind: "external", name: "", surname: "", weight: "" } : { kind: "internal", athleteId: e.target.value === "" ? "" : Number(e.target.value) })
                  }
                >
                  <option value="">Choose…</option>
                  {athletes.map((a) => (
                    <option key={a.id} value={a.id} disabled={!a.active}>
                      {a.name}
                      {a.active ? "" : " (no active subscription)"}
                    </option>
                  ))}
                  <option value="external">Someone else (external athlete)</option>
                </select>
                {f[`athletes[${i}]`] ? (
                  <p className="field-error" id={`seat-${i}-error`}>
                    {f[`athletes[${i}]`].join(" ")}
                  </p>
                ) : null}
              </div>
              {seat.kind === "external" ? (
                <>
                  <Field label={`Seat ${i + 1} name`} name={`seat-${i}-name`} value={seat.name} onChange={(e) => updateSeat(i, { ...seat, name: e.target.value })} />
                  <Field label={`Seat ${i + 1} surname`} name={`seat-${i}-surname`} value={seat.surname} onChange={(e) => updateSeat(i, { ...seat, surname: e.target.value })} />
                  <Field label={`Seat ${i + 1} weight (kg)`} name={`seat-${i}-weight`} inputMode="decimal" value={seat.weight} onChange={(e) => updateSeat(i, { ...seat, weight: e.target.value })} />
                </>
              ) : null}
            </div>
          ))}
        </fieldset>
      ) : null}

      <div className="row">
        <Field label="Competition" name="competition" value={competition} onChange={(e) => setCompetition(e.target.value)} errors={f.competition} maxLength={64} />
        <Field label="Description" name="description" value={description} onChange={(e) => setDescription(e.target.value)} errors={f.description} maxLength={64} />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={important} onChange={(e) => setImportant(e.target.checked)} /> Flag for review
      </label>

      {progress !== null ? (
        <div>
          <label htmlFor="upload-progress">Uploading and processing</label>
          <progress id="upload-progress" max={100} value={progress} style={{ width: "100%" }}>
            {progress}%
          </progress>
        </div>
      ) : null}
      <div className="row">
        <button type="submit" disabled={progress !== null}>
          Upload
        </button>
      </div>
    </form>
  );
}
