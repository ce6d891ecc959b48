import type { Metadata } from "next";
import Link from "next/link";
import { listApplications } from "@/server/applications/applications";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { DeleteEntityButton } from "@/app/_components/delete-entity";
import { keyPairDeletion, listKeyPairs } from "@/server/keys/key-pairs";
import { CreateKeyPairForm, KeyPairApplicationForm, RevokeKeyPairButton } from "./key-pair-forms";

export const metadata: Metadata = { title: "Key pairs" };

export default async function KeyPairsPage() {
  const user = await requireUser("/developer/keys");
  const db = getDb();
  const [keyPairs, applications] = await Promise.all([listKeyPairs(db, user.id), listApplications(db, user.id)]);
  // Test keys stay bound to their sandbox's application: only the owner's own keys get the binding form.
  const active = keyPairs.filter((k) => !k.revokedAt && !k.sandboxPerson);
  const deletions = new Map(
    await Promise.all(keyPairs.map(async (k) => [k.id, (await keyPairDeletion(db, user.id, k.id)).statement] as const)),
  );
  return (
    <>
      <h1>Key pairs</h1>
      <p>
        A key pair lets a script or a server use the results API as you, with your role ({user.role}) and access. Send{" "}
        <code>Authorization: Bearer PUBLIC_KEY.SECRET_KEY</code>. The secret is shown once, when you create the pair.
      </p>
      <CreateKeyPairForm />
      <p className="muted">
        Test keys act as an application’s sandbox person and reach only its simulated data; make them on the application’s page, section
        “Sandbox”. Every results API answer names the key’s mode in <code>Paddle-Key-Mode</code> (<code>test</code> or <code>live</code>).
      </p>
      <h2>Your key pairs</h2>
      {keyPairs.length === 0 ? (
        <p className="muted">No key pairs yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Mode</th>
              <th scope="col">Public key</th>
              <th scope="col">Secret</th>
              <th scope="col">Uploads count as created by</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {keyPairs.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  {k.mode === "test" ? (
                    <span className="badge" title="Acts as a sandbox person: simulated data only">
                      test
                    </span>
                  ) : (
                    <span className="muted">live</span>
                  )}
                </td>
                <td>
                  <code>{k.publicKey}</code>
                </td>
                <td>
                  <code>{k.secretStart}…</code>
                </td>
                <td>
                  {k.application ? (
                    <>
                      <Link href={`/developer/applications/${k.application.id}`}>{k.application.name}</Link>{" "}
                      <span className="muted">({k.application.surface} surface)</span>
                    </>
                  ) : (
                    <span className="muted">no application</span>
                  )}
                </td>
                <td>{k.createdAt.toISOString().slice(0, 10)}</td>
                <td>{k.lastUsedAt ? k.lastUsedAt.toISOString().slice(0, 16).replace("T", " ") : "never"}</td>
                <td>
                  <div className="row">
                    {k.revokedAt ? <span className="badge">revoked</span> : <RevokeKeyPairButton id={k.id} name={k.name} />}
                    <DeleteEntityButton kind="keyPair" id={k.id} name={k.name} statement={deletions.get(k.id)!} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Uploads on behalf of an application</h2>
      <p>
        An OAuth application that uploads sessions through a key pair can be bound to it: sessions uploaded through the key from then on
        count as created by that application. An application on the <strong>session</strong> surface sees through the Data API only the
        sessions uploaded through a key bound to it; data and partner applications see your sessions whichever key uploaded them. Changing
        the binding does not change sessions already uploaded, and a revoked key pair keeps the binding it had.
      </p>
      {applications.length === 0 ? (
        <p className="muted">
          You have no OAuth applications yet. <Link href="/developer/applications/new">Register an application</Link> to bind a key pair to
          it.
        </p>
      ) : active.length === 0 ? (
        <p className="muted">No active key pairs to bind.</p>
      ) : (
        active.map((k) => (
          <KeyPairApplicationForm
            key={k.id}
            id={k.id}
            name={k.name}
            applicationId={k.applicationId}
            applications={applications.map((a) => ({ id: a.id, name: a.name, surface: a.surface }))}
          />
        ))
      )}
    </>
  );
}
