import type { Metadata } from "next";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listOperatorActions } from "@/server/operator/account-actions";
import { listAccounts } from "@/server/operator/list-accounts";
import type { RoleName } from "@/server/users/users";
import { AccountActions } from "./account-actions";

export const metadata: Metadata = { title: "Operator" };

const ACTION_LABEL = { unlock: "unlocked sign-in", change_role: "changed role", disable: "disabled", enable: "enabled" } as const;

export default async function OperatorPage() {
  const operator = await requireOperator();
  const db = getDb();
  const [accounts, actions] = await Promise.all([listAccounts(db), listOperatorActions(db)]);
  return (
    <>
      <h1>Operator</h1>
      <h2 id="accounts-heading">Accounts</h2>
      <div className="table-scroll table-card" tabIndex={0} role="region" aria-labelledby="accounts-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id} data-testid={`account-${a.email}`}>
                <td>{a.email}</td>
                <td>{a.name}</td>
                <td>{a.role}</td>
                <td>
                  {a.disabledAt ? <span className="badge">disabled</span> : null}{" "}
                  {a.lockedUntil ? <span className="badge">sign-in locked until {a.lockedUntil.toISOString().slice(11, 16)} UTC</span> : null}
                  {!a.disabledAt && !a.lockedUntil ? "active" : null}
                </td>
                <td>{a.createdAt.toISOString().slice(0, 10)}</td>
                <td>
                  {a.id === operator.id ? (
                    <span className="muted">your account</span>
                  ) : (
                    <AccountActions userId={a.id} email={a.email} role={a.role as RoleName} locked={a.lockedUntil !== null} disabled={a.disabledAt !== null} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 id="actions-heading">Recent decisions</h2>
      {actions.length ? (
        <div className="table-scroll table-card" tabIndex={0} role="region" aria-labelledby="actions-heading">
          <table>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Operator</th>
                <th scope="col">Account</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {actions.map((x) => (
                <tr key={x.id}>
                  <td>{x.createdAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                  <td>{x.operatorName ?? "deleted account"}</td>
                  <td>{x.targetEmail}</td>
                  <td>
                    {ACTION_LABEL[x.action]}
                    {x.action === "change_role" ? ` from ${x.details.from} to ${x.details.to}` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No decisions yet.</p>
      )}
    </>
  );
}
