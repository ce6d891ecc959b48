"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

interface Props {
  /** managedBy: the coach's name, or null when the person manages it themself. */
  profile: { id: number; fullName: string; modality: string; managedBy: string | null } | null;
}

export function OwnAthleteProfile({ profile }: Props) {
  const router = useRouter();
  const [values, setValues] = useState({ name: "", surname: "", modality: "" });
  const create = useSubmit(
    () => trpc.athleteLinks.createOwnProfile.mutate(values),
    () => router.refresh(),
  );
  const unlink = useSubmit(
    () => trpc.athleteLinks.unlink.mutate({ athleteId: profile!.id }),
    () => router.refresh(),
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });

  if (profile) {
    return (
      <section className="card stack" aria-label="Your athlete profile">
        <dl>
          <dt>Athlete</dt>
          <dd>{profile.fullName}</dd>
          <dt>Modality</dt>
          <dd>{profile.modality || "—"}</dd>
          <dt>Managed by</dt>
          <dd>{profile.managedBy ?? "you"}</dd>
        </dl>
        <p className="muted">The sessions this athlete paddled in are yours to see, with your own heart rate from the unit.</p>
        <FormError message={unlink.errors.form} />
        <div className="row">
          <button type="button" className="secondary" disabled={unlink.pending} onClick={() => unlink.submit()}>
            Unlink from my account
          </button>
        </div>
      </section>
    );
  }
  return (
    <>
      <p>
        Your account has no athlete profile. A coach can invite you to link the record they keep of you; or create your own profile here, to
        record your own sessions as an athlete.
      </p>
      <form className="stack card" onSubmit={create.submit} noValidate aria-label="Create your athlete profile">
        <FormError message={create.errors.form} />
        <Field label="Name" name="name" value={values.name} onChange={set("name")} errors={create.errors.fields.name} />
        <Field label="Surname" name="surname" value={values.surname} onChange={set("surname")} errors={create.errors.fields.surname} />
        <Field
          label="Modality"
          name="modality"
          value={values.modality}
          onChange={set("modality")}
          errors={create.errors.fields.modality}
          hint="e.g. Kayak, Canoe"
        />
        <div className="row">
          <button type="submit" disabled={create.pending}>
            Create my athlete profile
          </button>
        </div>
      </form>
    </>
  );
}
