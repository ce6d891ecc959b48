import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listKeyPairs } from "@/server/keys/key-pairs";
import { CreateKeyPairForm, RevokeKeyPairButton } from "./key-pair-forms";

export const metadata: Metadata = { title: "Key pairs" };

export default async function KeyPairsPage() {
  const user = await requireUser("/developer/keys");
  const keyPairs = await listKeyPairs(getDb(), user.id);
  return (
    <>
      <h1>Key pairs</h1>
      <p>
        A key pair lets a script or a server use the results API as you, with your role ({user.role}) and access. Send{" "}
        <code>Authorization: Bearer PUBLIC_KEY.SECRET_KEY</code>. The secret is shown once, when you create the pair.
      </p>
      <CreateKeyPairForm />
      <h2>Your key pairs</h2>
      {keyPairs.length === 0 ? (
        <p className="muted">No key pairs yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Public key</th>
              <th scope="col">Secret</th>
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
                  <code>{k.publicKey}</code>
                </td>
                <td>
                  <code>{k.secretStart}…</code>
                </td>
                <td>{k.createdAt.toISOString().slice(0, 10)}</td>
                <td>{k.lastUsedAt ? k.lastUsedAt.toISOString().slice(0, 16).replace("T", " ") : "never"}</td>
                <td>{k.revokedAt ? <span className="badge">revoked</span> : <RevokeKeyPairButton id={k.id} name={k.name} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
