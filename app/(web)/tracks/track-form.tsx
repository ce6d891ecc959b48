"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import type { TrackView } from "@/server/tracks/tracks";

export function TrackForm({ track, teams }: { track?: TrackView; teams: { id: number; name: string }[] }) {
  const router = useRouter();
  const [values, setValues] = useState({
    name: track?.name ?? "",
    location: track?.location ?? "",
    latitude: track?.latitude?.toString() ?? "",
    longitude: track?.longitude?.toString() ?? "",
  });
  const [isPublic, setIsPublic] = useState(track?.isPublic ?? false);
  const [sharedTeamIds, setSharedTeamIds] = useState<number[]>(track?.sharedTeamIds ?? []);
  const input = { ...values, isPublic, sharedTeamIds };
  const { pending, errors, submit } = useSubmit(
    () => (track ? trpc.tracks.update.mutate({ id: track.id, values: input }) : trpc.tracks.create.mutate(input)),
    () => {
      router.push("/tracks");
      router.refresh();
    },
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });
  const toggleTeam = (id: number) => setSharedTeamIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  const f = errors.fields;

  return (
    <form className="stack card" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <div className="row">
        <Field label="Name" name="name" required value={values.name} onChange={set("name")} errors={f.name} />
        <Field
          label="Location"
          name="location"
          value={values.location}
          onChange={set("location")}
          errors={f.location}
          hint="Lake, river or city."
        />
      </div>
      <div className="row">
        <Field
          label="Start latitude"
          name="latitude"
          inputMode="decimal"
          value={values.latitude}
          onChange={set("latitude")}
          errors={f.latitude}
          hint="Optional, decimal degrees."
        />
        <Field
          label="Start longitude"
          name="longitude"
          inputMode="decimal"
          value={values.longitude}
          onChange={set("longitude")}
          errors={f.longitude}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" name="isPublic" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} /> Public: every user may
        choose this track
      </label>
      {teams.length > 0 ? (
        <fieldset>
          <legend>Share with your teams</legend>
          {teams.map((team) => (
            <label className="checkbox" key={team.id}>
              <input type="checkbox" checked={sharedTeamIds.includes(team.id)} onChange={() => toggleTeam(team.id)} /> {team.name}
            </label>
          ))}
          {f.sharedTeamIds ? <p className="field-error">{f.sharedTeamIds.join(" ")}</p> : null}
        </fieldset>
      ) : null}
      <div className="row">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : track ? "Save changes" : "Create track"}
        </button>
      </div>
    </form>
  );
}
