"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { NewKeyPairSecret, RevokeKeyPairButton } from "../../keys/key-pair-forms";

export interface TestKeyView {
  id: number;
  name: string;
  publicKey: string;
  secretStart: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/**
 * Test key pairs of the application's sandbox person (docs/sandbox.md "Test keys"):
 * made here in one action, the secret shown once; every results API answer to
 * them carries `Paddle-Key-Mode: test`.
 */
export function TestKeys({ applicationId, sandboxName, keys }: { applicationId: number; sandboxName: string; keys: TestKeyView[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; publicKey: string; secretKey: string } | null>(null);
  const { pending, errors, submit } = useSubmit(
    () => trpc.sandbox.createTestKey.mutate({ applicationId, name }),
    (keyPair) => {
      setCreated(keyPair);
      setName("");
      router.refresh();
    },
  );
  return (
    <div className="card stack" data-testid="test-keys">
      <h3>Test keys</h3>
      <p>
        A results API key pair that acts as {sandboxName}: uploads, lists and deletes through it touch only the sandbox person’s simulated
        data, and a real person’s ids answer 403 or 404. Every answer to it carries <code>Paddle-Key-Mode: test</code> (other keys:{" "}
        <code>live</code>). Its uploads count as created by this application. Test keys survive a reset.
      </p>
      {created ? <NewKeyPairSecret created={created} kind="Test key pair" testIdPrefix="test-" /> : null}
      <form className="stack" onSubmit={submit} noValidate>
        <FormError message={errors.form} />
        <div className="row">
          <Field
            label="Test key name"
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            errors={errors.fields.name}
            hint="Where your tests run, e.g. “CI upload tests”."
          />
          <button type="submit" disabled={pending}>
            Create test key pair
          </button>
        </div>
      </form>
      <TestKeyTable keys={keys} />
    </div>
  );
}

function TestKeyTable({ keys }: { keys: TestKeyView[] }) {
  if (keys.length === 0) return <p className="muted">No test keys yet.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Public key</th>
          <th scope="col">Secret</th>
          <th scope="col">Mode</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td>
              <code>{k.publicKey}</code>
            </td>
            <td>
              <code>{k.secretStart}…</code>
            </td>
            <td>
              <span className="badge">test</span>
            </td>
            <td>{k.lastUsedAt ? k.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td>
            <td>{k.revokedAt ? <span className="badge">revoked</span> : <RevokeKeyPairButton id={k.id} name={k.name} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
