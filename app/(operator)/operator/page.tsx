import type { Metadata } from "next";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listAccounts } from "@/server/operator/list-accounts";

export const metadata: Metadata = { title: "Operator" };

export default async function OperatorPage() {
  await requireOperator();
  const accounts = await listAccounts(getDb());
  return (
    <>
      <h1>Operator</h1>
      <h2>Accounts</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr key={a.id}>
              <td>{a.email}</td>
              <td>{a.name}</td>
              <td>{a.role}</td>
              <td>{a.createdAt.toISOString().slice(0, 10)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
