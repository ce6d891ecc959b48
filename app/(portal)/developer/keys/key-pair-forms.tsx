"use client";

import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { CopyButton } from "@/app/_components/copy-button";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, SelectField, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** A key pair just made: its public key and the secret, shown this once (also the application page's test keys). */
export function NewKeyPairSecret({
  created,
  kind = "Key pair",
  testIdPrefix = "",
}: {
  created: { name: string; publicKey: string; secretKey: string };
  kind?: string;
  testIdPrefix?: string;
}) {
  return (
    <div className="notice" role="status">
      <p>
        <strong>
          {kind} “{created.name}” created.
        </strong>{" "}
        Copy the secret now: it is not stored and will not be shown again.
      </p>
      <p>
        Public key: <code data-testid={`${testIdPrefix}public-key`}>{created.publicKey}</code>{" "}
        <CopyButton value={created.publicKey} label="Copy public key" />
      </p>
      <p>
        Secret key: <code data-testid={`${testIdPrefix}secret-key`}>{created.secretKey}</code>{" "}
        <CopyButton value={created.secretKey} label="Copy secret key" />
      </p>
    </div>
  );
}

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
      {created ? <NewKeyPairSecret created={created} /> : null}
      <form className="stack" onSubmit={submit} noValidate>
        <FormError message={errors.form} />
        <div className="row">
          <Field
            label="Key pair name"
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            errors={errors.fields.name}
            hint="Where it is used, e.g. “Boathouse laptop”."
          />
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
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={`Revoke ${name}`}
      title={`Revoke “${name}”?`}
      statement="Apps using this key pair get 401 from their next request. A revoked key pair cannot be restored: they need a new one."
      confirmLabel="Revoke key pair"
      action={() => trpc.keys.revoke.mutate({ id })}
      onDone={() => router.refresh()}
    />
  );
}

/**
 * Which of the owner's applications uploads through this key count as created
 * by. Only active key pairs get this form: a revoked one cannot be rebound.
 */
export function KeyPairApplicationForm({
  id,
  name,
  applicationId,
  applications,
}: {
  id: number;
  name: string;
  applicationId: number | null;
  applications: { id: number; name: string; surface: string }[];
}) {
  const router = useRouter();
  const [value, setValue] = useState(applicationId?.toString() ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const options = [
    { value: "", label: "No application" },
    ...applications.map((a) => ({ value: String(a.id), label: `${a.name} (${a.surface} surface)` })),
  ];
  const { pending, errors, submit } = useSubmit(
    () => trpc.keys.bindApplication.mutate({ id, applicationId: value ? Number(value) : null }),
    () => {
      setSaved(options.find((o) => o.value === value)?.label ?? "No application");
      router.refresh();
    },
  );
  const titleId = `key-pair-${id}-binding`;
  return (
    <form className="card stack" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h3 id={titleId}>Uploads through “{name}”</h3>
      <FormError message={errors.form} />
      <div className="row">
        <SelectField
          label="Uploads count as created by"
          name={`key-pair-${id}-application`}
          options={options}
          value={value}
          errors={errors.fields.applicationId}
          onChange={(e) => {
            setValue(e.target.value);
            setSaved(null);
          }}
        />
        <button type="submit" disabled={pending}>
          Save
        </button>
      </div>
      <p role="status" className={saved ? "notice" : "visually-hidden"}>
        {saved ? `Saved: uploads through “${name}” now count as created by ${saved === "No application" ? "no application" : saved}.` : ""}
      </p>
    </form>
  );
}
