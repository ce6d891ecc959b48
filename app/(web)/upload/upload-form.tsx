"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Field, FormError } from "@/app/_components/form";
import { CrewPicker, type CrewAthlete, type Seat } from "./crew-picker";

type Option = { id: number; name: string };

interface Props {
  vessels: { id: number; type: string; npeople: number }[];
  categories: Option[];
  paces: Option[];
  tracks: Option[];
  athletes: CrewAthlete[];
  /** The owner's workout templates, for a training. */
  templates: Option[];
  initialKind?: "session" | "training";
}

/** A required choice: the same field as OptionalSelect, whose empty entry asks to choose. */
function Select({
  onChange,
  ...props
}: {
  label: string;
  name: string;
  value: number | "";
  onChange: (v: number) => void;
  options: Option[];
  errors?: string[];
}) {
  return <OptionalSelect {...props} none="Choose…" onChange={(v) => onChange(v === "" ? 0 : v)} />;
}

const DEFAULT_SENSITIVITY = 5;

function OptionalSelect({
  label,
  name,
  value,
  onChange,
  options,
  none,
  errors,
}: {
  label: string;
  name: string;
  value: number | "";
  onChange: (v: number | "") => void;
  options: Option[];
  none: string;
  errors?: string[];
}) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select
        id={name}
        value={value}
        onChange={(e) => onChange(e.target.value === "" ? "" : Number(e.target.value))}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${name}-error` : undefined}
      >
        <option value="">{none}</option>
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

/**
 * The upload form: a session (file, effort, boat and crew in boat order,
 * optional notes) or a training (file, title, boat, optional template and
 * segmentation sensitivity; docs/trainings.md); posts with a progress bar.
 */
export function UploadForm({ vessels, categories, paces, tracks, athletes, templates, initialKind = "session" }: Props) {
  const router = useRouter();
  const [kind, setKind] = useState<"session" | "training">(initialKind);
  const [title, setTitle] = useState("");
  const [templateId, setTemplateId] = useState<number | "">("");
  const [sensitivity, setSensitivity] = useState(String(DEFAULT_SENSITIVITY));
  const [file, setFile] = useState<File | null>(null);
  // One Idempotency-Key per chosen file, made when it is chosen: a double submit or a retry after a lost answer is the
  // same upload and shows the one result (docs/web-app.md "Upload: retries").
  const uploadKey = useRef<string | null>(null);
  const [mode, setMode] = useState<"distance" | "duration">("distance");
  // No fixed default: the recording suggests the distance and the person confirms it.
  const [distance, setDistance] = useState("");
  // A ref, not state: the suggestion's answer arrives later and must see a distance typed meanwhile.
  const distanceTyped = useRef(false);
  const [suggestion, setSuggestion] = useState<{ state: "reading" } | { state: "ready"; distanceM: number; coveredM: number } | null>(null);
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
  const [errors, setErrors] = useState<{ form: string | null; fields: Record<string, string[]>; detail?: string }>({
    form: null,
    fields: {},
  });
  /** The session or training already made from the chosen file (409 from the upload endpoint). */
  const [duplicateOf, setDuplicateOf] = useState<{ href: string; what: string } | null>(null);

  const vessel = vessels.find((v) => v.id === vesselId);
  function chooseVessel(id: number) {
    setVesselId(id);
    const size = vessels.find((v) => v.id === id)?.npeople ?? 0;
    setSeats((old) => Array.from({ length: size }, (_, i) => old[i] ?? { kind: "internal", athleteId: "" }));
  }
  const updateSeat = (index: number, seat: Seat) => {
    setSeats((all) => all.map((s, i) => (i === index ? seat : s)));
    fixed(`athletes[${index}]`, "athletes");
  };

  /**
   * A field the person changed loses its error at once; when no field error
   * is left, the form's summary goes too (it only pointed at them).
   */
  function fixed(...names: string[]) {
    setErrors((old) => {
      const fields = Object.fromEntries(Object.entries(old.fields).filter(([k]) => !names.includes(k)));
      if (Object.keys(fields).length === Object.keys(old.fields).length && old.form === null) return old;
      return Object.keys(fields).length ? { ...old, fields } : { form: null, fields: {} };
    });
  }
  /** A setter that also clears the errors of the fields it sets. */
  const clearing =
    <T,>(set: (value: T) => void, ...names: string[]) =>
    (value: T) => {
      set(value);
      fixed(...names);
    };

  /**
   * Pre-analysis of the chosen file (docs/web-app.md "Upload"): the server
   * reads it in memory, stores nothing, and answers the standard distance
   * nearest what the crew covered; it is preselected until the person types
   * their own. A file it cannot read gets its error at once.
   */
  const latestSuggestion = useRef(0);
  async function suggestDistance(chosen: File | null, forKind = kind) {
    // Only the answer for the file chosen last counts.
    const ticket = ++latestSuggestion.current;
    setSuggestion(null);
    if (!chosen || forKind !== "session") return;
    setSuggestion({ state: "reading" });
    const body = new FormData();
    if (vesselId !== "") body.append("metadata", JSON.stringify({ vessel_id: vesselId }));
    body.append("file", chosen);
    try {
      const response = await fetch("/api/uploads/distance-suggestion", { method: "POST", body });
      const answer = await response.json().catch(() => ({}));
      if (ticket !== latestSuggestion.current) return;
      if (!response.ok) {
        setSuggestion(null);
        const fields: Record<string, string[]> = answer.field_errors?.file ? { file: answer.field_errors.file } : {};
        if (fields.file) setErrors((old) => ({ ...old, fields: { ...old.fields, ...fields } }));
        return;
      }
      setSuggestion({ state: "ready", distanceM: answer.data.distance_m, coveredM: answer.data.covered_m });
      if (!distanceTyped.current) {
        setMode("distance");
        setDistance(String(answer.data.distance_m));
        fixed("distance");
      }
    } catch {
      // Offline or the request failed: the person enters the distance.
      if (ticket === latestSuggestion.current) setSuggestion(null);
    }
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const fieldErrors: Record<string, string[]> = {};
    if (!file) fieldErrors.file = ["Choose the .svc file from your sensor unit"];
    if (vesselId === "") fieldErrors.vessel_id = ["Choose the boat"];
    if (kind === "session" && mode === "distance" && distance.trim() === "") fieldErrors.distance = ["Enter the effort's distance"];
    const sensitivityValue = Number(sensitivity);
    if (kind === "training" && !(sensitivity.trim() !== "" && sensitivityValue >= 0.5 && sensitivityValue <= 10))
      fieldErrors.sensitivity = ["Sensitivity is a number from 0.5 to 10"];
    if (Object.keys(fieldErrors).length) return setErrors({ form: "Please correct the highlighted fields.", fields: fieldErrors });

    const training = {
      vessel_id: vesselId,
      track_id: trackId === "" ? null : trackId,
      // Seat by seat from the bow; an unnamed seat is null (docs/trainings.md "Crew").
      athletes: seats.length ? seats.map((s) => (s.kind === "internal" && s.athleteId !== "" ? s.athleteId : null)) : null,
      title,
      template_id: templateId === "" ? null : templateId,
      sensitivity: sensitivityValue,
    };
    const session = {
      ...(mode === "distance" ? { distance: Number(distance) } : { duration_ms: Math.round(Number(durationS) * 1000) }),
      vessel_id: vesselId,
      track_id: trackId,
      category_id: categoryId,
      pace_id: paceId,
      athletes: seats.map((s) =>
        s.kind === "internal"
          ? s.athleteId === ""
            ? null
            : s.athleteId
          : { name: s.name, surname: s.surname, ...(s.weight ? { weight: Number(s.weight) } : {}) },
      ),
      competition,
      description,
      important,
    };
    const body = new FormData();
    body.append("metadata", JSON.stringify(kind === "training" ? training : session));
    body.append("file", file!);

    // XMLHttpRequest, not fetch: it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open("POST", kind === "training" ? "/api/uploads/trainings" : "/api/uploads");
    if (uploadKey.current) xhr.setRequestHeader("Idempotency-Key", uploadKey.current);
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onerror = () => {
      setProgress(null);
      setErrors({ form: "The upload failed. Check your connection and try again.", fields: {} });
    };
    xhr.onload = () => {
      setProgress(null);
      const response = JSON.parse(xhr.responseText || "{}");
      if (xhr.status === 201) {
        router.push(kind === "training" ? `/trainings/${response.data.id}` : `/sessions/${response.data.id}`);
        return;
      }
      if (xhr.status === 409 && typeof response.existing_training_id === "number") {
        setDuplicateOf({ href: `/trainings/${response.existing_training_id}`, what: "training" });
        setErrors({ form: null, fields: {} });
        return;
      }
      if (xhr.status === 409 && typeof response.existing_result_id === "number") {
        setDuplicateOf({ href: `/sessions/${response.existing_result_id}`, what: "session" });
        setErrors({ form: null, fields: {} });
        return;
      }
      // The server words its errors as this form labels its fields; its technical sentence is the detail.
      const fields = response.field_errors ?? {};
      const detail = typeof response.detail === "string" ? response.detail : undefined;
      setErrors({
        form: detail || !Object.keys(fields).length ? (response.message ?? "The upload failed.") : "Please correct the highlighted fields.",
        fields,
        detail,
      });
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
          This file was already uploaded. <a href={duplicateOf.href}>Open the existing {duplicateOf.what}</a>.
        </p>
      ) : null}
      <fieldset>
        <legend>What did you record?</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="kind"
            checked={kind === "session"}
            onChange={() => {
              setKind("session");
              if (file && suggestion === null) void suggestDistance(file, "session");
            }}
          />{" "}
          One effort (a session)
        </label>
        <label className="checkbox">
          <input type="radio" name="kind" checked={kind === "training"} onChange={() => setKind("training")} /> This is a training: work
          sets and rests
        </label>
      </fieldset>
      {kind === "session" && tracks.length === 0 ? (
        <p className="notice">
          A session names a track: <Link href="/tracks/new">add one first</Link>. A training can be uploaded without one.
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="file">{kind === "training" ? "Training file (.svc)" : "Session file (.svc)"}</label>
        <input
          id="file"
          name="file"
          type="file"
          accept=".svc"
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            // getRandomValues, not randomUUID: the latter needs a secure context, and a local run may be plain HTTP.
            uploadKey.current = chosen
              ? Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")
              : null;
            clearing(setFile, "file")(chosen);
            void suggestDistance(chosen);
          }}
          aria-invalid={f.file ? true : undefined}
          aria-describedby={f.file ? "file-error" : undefined}
        />
        {f.file ? (
          <p className="field-error" id="file-error">
            {f.file.join(" ")}
          </p>
        ) : null}
      </div>

      {kind === "training" ? (
        <>
          <Field
            label="Title"
            name="title"
            value={title}
            onChange={(e) => clearing(setTitle, "title")(e.target.value)}
            errors={f.title}
            maxLength={128}
            hint="For example “6 × 500 m at race pace”. Optional."
          />
          <div className="row">
            <Select
              label="Boat"
              name="vessel_id"
              value={vesselId}
              onChange={clearing(chooseVessel, "vessel_id", "athletes")}
              options={vessels.map((v) => ({ id: v.id, name: v.type }))}
              errors={f.vessel_id}
            />
            <OptionalSelect
              label="Workout template"
              name="template_id"
              value={templateId}
              onChange={clearing(setTemplateId, "template_id")}
              options={templates}
              none="None: find the sets from the recording"
              errors={f.template_id}
            />
          </div>
          {templates.length === 0 ? (
            <p className="hint">You have no workout templates yet; the sets are found from the recording alone.</p>
          ) : null}
          <OptionalSelect
            label="Track"
            name="track_id"
            value={trackId}
            onChange={clearing(setTrackId, "track_id")}
            options={tracks}
            none="No track"
            errors={f.track_id}
          />
          {vessel ? (
            <CrewPicker kind="training" vesselType={vessel.type} seats={seats} athletes={athletes} errors={f} onSeat={updateSeat} />
          ) : null}
          <Field
            label="Sensitivity"
            name="sensitivity"
            type="number"
            min={0.5}
            max={10}
            step={0.5}
            inputMode="decimal"
            value={sensitivity}
            onChange={(e) => clearing(setSensitivity, "sensitivity")(e.target.value)}
            errors={f.sensitivity}
            hint="From 0.5 to 10; 5 suits most practices. Higher finds lighter and shorter pieces as sets; lower keeps only the hard ones. With a template, sets are also matched to its steps."
          />
        </>
      ) : (
        <>
          <fieldset>
            <legend>Effort</legend>
            <label className="checkbox">
              <input type="radio" name="mode" checked={mode === "distance"} onChange={() => setMode("distance")} /> A distance
            </label>
            <label className="checkbox">
              <input type="radio" name="mode" checked={mode === "duration"} onChange={() => setMode("duration")} /> A duration
            </label>
            {mode === "distance" ? (
              <Field
                label="Distance (m)"
                name="distance"
                inputMode="numeric"
                value={distance}
                onChange={(e) => {
                  distanceTyped.current = true;
                  clearing(setDistance, "distance")(e.target.value);
                }}
                errors={f.distance}
                hint={
                  suggestion?.state === "reading"
                    ? "Reading the recording for its distance…"
                    : suggestion?.state === "ready"
                      ? `Suggested from the recording: the crew covered about ${suggestion.coveredM} m between the start and the stop, so ${suggestion.distanceM} m. Check it before uploading (50 to 1000 m).`
                      : "50 to 1000 m. Choose the file first: the distance is suggested from the recording."
                }
              />
            ) : (
              <Field
                label="Duration (s)"
                name="duration"
                inputMode="decimal"
                value={durationS}
                onChange={(e) => clearing(setDurationS, "duration_ms", "distance")(e.target.value)}
                errors={f.duration_ms ?? f.distance}
                hint="Up to 300 s."
              />
            )}
          </fieldset>

          <div className="row">
            <Select
              label="Boat"
              name="vessel_id"
              value={vesselId}
              onChange={clearing(chooseVessel, "vessel_id", "athletes")}
              options={vessels.map((v) => ({ id: v.id, name: v.type }))}
              errors={f.vessel_id}
            />
            <Select
              label="Track"
              name="track_id"
              value={trackId}
              onChange={clearing(setTrackId, "track_id")}
              options={tracks}
              errors={f.track_id}
            />
            <Select
              label="Category"
              name="category_id"
              value={categoryId}
              onChange={clearing(setCategoryId, "category_id")}
              options={categories}
              errors={f.category_id}
            />
            <Select
              label="Pace"
              name="pace_id"
              value={paceId}
              onChange={clearing(setPaceId, "pace_id")}
              options={paces}
              errors={f.pace_id}
            />
          </div>

          {vessel ? (
            <CrewPicker kind="session" vesselType={vessel.type} seats={seats} athletes={athletes} errors={f} onSeat={updateSeat} />
          ) : null}

          <div className="row">
            <Field
              label="Competition"
              name="competition"
              value={competition}
              onChange={(e) => clearing(setCompetition, "competition")(e.target.value)}
              errors={f.competition}
              maxLength={64}
            />
            <Field
              label="Description"
              name="description"
              value={description}
              onChange={(e) => clearing(setDescription, "description")(e.target.value)}
              errors={f.description}
              maxLength={64}
            />
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={important} onChange={(e) => setImportant(e.target.checked)} /> Important
          </label>
        </>
      )}

      {progress !== null ? (
        <div>
          <label htmlFor="upload-progress">{kind === "training" ? "Uploading" : "Uploading and processing"}</label>
          <progress id="upload-progress" max={100} value={progress} style={{ width: "100%" }}>
            {progress}%
          </progress>
        </div>
      ) : null}
      <div className="row">
        <button type="submit" disabled={progress !== null || suggestion?.state === "reading"}>
          Upload
        </button>
      </div>
    </form>
  );
}
