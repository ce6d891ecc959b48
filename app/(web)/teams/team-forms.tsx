"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { ConfirmButton } from "@/app/_components/confirm-dialog";

/** Create a team (no team) or rename it. */
export function TeamNameForm({ team }: { team?: { id: number; name: string } }) {
  const router = useRouter();
  const [name, setName] = useState(team?.name ?? "");
  const { pending, errors, submit } = useSubmit(
    () => (team ? trpc.teams.rename.mutate({ id: team.id, values: { name } }) : trpc.teams.create.mutate({ name })),
    (saved) => {
      router.push(`/teams/${saved.id}`);
      router.refresh();
    },
  );
  return (
    <form className="stack card" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <Field label="Team name" name="name" required value={name} onChange={(e) => setName(e.target.value)} errors={errors.fields.name} />
      <div className="row">
        <button type="submit" disabled={pending}>
          {team ? "Rename" : "Create team"}
        </button>
      </div>
    </form>
  );
}

export function AddCoachForm({ teamId }: { teamId: number }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const { pending, errors, submit } = useSubmit(
    () => trpc.teams.addCoach.mutate({ teamId, email }),
    () => {
      setEmail("");
      router.refresh();
    },
  );
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <div className="row">
        <Field
          label="Coach's account email"
          name="email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          errors={errors.fields.email}
        />
        <button type="submit" disabled={pending}>
          Add coach
        </button>
      </div>
    </form>
  );
}

export function AddAthleteForm({ teamId, athletes }: { teamId: number; athletes: { id: number; name: string }[] }) {
  const router = useRouter();
  const [athleteId, setAthleteId] = useState(athletes[0]?.id ?? 0);
  const { pending, errors, submit } = useSubmit(
    () => trpc.teams.addAthlete.mutate({ teamId, athleteId }),
    () => router.refresh(),
  );
  if (athletes.length === 0) return <p className="muted">All your athletes are in this team.</p>;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <div className="row">
        <div className="field">
          <label htmlFor="athleteId">Athlete</label>
          <select id="athleteId" value={athleteId} onChange={(e) => setAthleteId(Number(e.target.value))}>
            {athletes.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          {errors.fields.athleteId ? <p className="field-error">{errors.fields.athleteId.join(" ")}</p> : null}
        </div>
        <button type="submit" disabled={pending}>
          Add athlete
        </button>
      </div>
    </form>
  );
}

/** Removing a member asks first; the team's last coach cannot be removed (the server refuses it too, under a lock). */
export function RemoveMemberButton({
  teamId,
  membershipId,
  label,
  role,
  lastCoach,
}: {
  teamId: number;
  membershipId: number;
  label: string;
  role: "coach" | "athlete";
  lastCoach: boolean;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Remove"
      ariaLabel={`Remove ${label}`}
      buttonClassName="link-button"
      title={`Remove ${label} from the team?`}
      refusal={lastCoach ? `${label} is the team's only coach. A team always keeps at least one coach: add another coach first.` : null}
      statement={
        role === "coach"
          ? `${label} no longer sees the team's athletes or their sessions through this team. No session is deleted.`
          : `The team's coaches no longer see ${label}'s sessions through this team. No session is deleted.`
      }
      confirmLabel="Remove"
      action={() => trpc.teams.removeMember.mutate({ teamId, membershipId })}
      onDone={() => router.refresh()}
    />
  );
}
