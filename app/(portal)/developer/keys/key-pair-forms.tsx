"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function CreateKeyPairForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; publicKey: string; secretKey: string } | null>(null);
  const { pending, errors, submit } = useSubmit(
    () => trpc.keys.create.mutate({ name }),
    (keyPair) => {
      setCreated(keyPair);
      setName("");
      router.refresh();
    },
  );
  return (
    <div className="card">
      {created ? (
        <div className="notice" role="status">
          <p>
            <strong>Key pair “{created.name}” created.</strong> Copy the secret now: it is not stored and will not be shown again.
          </p>
          <p>
            Public key: <code data-testid="public-key">{created.publicKey}</code>
          </p>
          <p>
            Secret key: <code data-testid="secret-key">{created.secretKey}</code>
          </p>
        </div>
      ) : null}
      <form className="stack" onSubmit={submit} noValidate>
        <FormError message={errors.form} />
        <div className="row">
          <Field label="Key pair name" name="name" value={name} onChange={(e) => setName(e.target.value)} errors={errors.fields.name} hint="Where it is used, e.g. “Boathouse laptop”." />
          <button type="submit" disabled={pending}>
            Create key pair
          </button>
        </div>
      </form>
    </div>
  );
}

export function RevokeKeyPairButton({ id, name }: { id: number; name: string }) {
  const router = useRouter();
  const { pending, errors, submit } = useSubmit(
    () => trpc.keys.revoke.mutate({ id }),
    () => router.refresh(),
  );
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={pending}
        aria-label={`Revoke ${name}`}
        onClick={() => {
          if (window.confirm(`Revoke “${name}”? Requests with it fail from now on.`)) void submit();
        }}
      >
        Revoke
      </button>
      {errors.form ? <span className="field-error"> {errors.form}</span> : null}
    </>
  );
}
