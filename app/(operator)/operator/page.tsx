import type { Metadata } from "next";
import Link from "next/link";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listOperatorActions } from "@/server/operator/account-actions";
import { ACCOUNTS_SHOWN, listAccounts } from "@/server/operator/list-accounts";
import {
  countResultsByCoreVersion,
  getLatestReprocessRun,
  isActiveReprocessState,
  listReprocessFailures,
  REPROCESS_STALLED_AFTER_MINUTES,
} from "@/server/reprocess/reprocess-runs";
import { RefreshWhileActive, StartReprocessButton, StopReprocessButton } from "./reprocess-panel";
import type { RoleName } from "@/server/users/users";
import { AccountActions } from "./account-actions";

export const metadata: Metadata = { title: "Operator" };

const ACTION_LABEL = {
  unlock: "unlocked sign-in",
  change_role: "changed role",
  disable: "disabled",
  enable: "enabled",
  stop_reprocess: "stopped reprocessing run",
} as const;
const utc = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;

export default async function OperatorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const db = getDb();
  const q = (await searchParams).q;
  const search = typeof q === "string" ? q.trim() : "";
  const [accounts, actions, stored, run] = await Promise.all([
    listAccounts(db, { search }),
    listOperatorActions(db),
    countResultsByCoreVersion(db),
    getLatestReprocessRun(db),
  ]);
  const failures = run ? await listReprocessFailures(db, run.id, 20) : [];
  const active = run ? isActiveReprocessState(run.state) : false;
  const finishedItems = run ? run.done + run.failed + run.skipped : 0;
  return (
    <>
      <h1>Operator</h1>
      {/* The overview is where an operator lands and where the menu's "Operator" goes: the review queue is one link away. */}
      <p>
        <Link href="/operator/applications">Third-party applications</Link>: review the Data API applications awaiting approval.
      </p>
      <section className="stack card" aria-labelledby="processing-heading">
        <h2 id="processing-heading">Processing core</h2>
        <p>
          Stored results: {stored.current} made by the current core v{stored.coreVersion}, {stored.older} by an older or unknown core.{" "}
          Processed trainings: {stored.trainings.current} current, {stored.trainings.older} older, unknown or failed.
        </p>
        <StartReprocessButton coreVersion={stored.coreVersion} disabled={active} />
        <RefreshWhileActive active={active} />
        {run ? (
          <div className="stack" data-testid="reprocess-run">
            <h3>
              Run {run.id} to core v{run.targetCoreVersion}: <span data-testid="reprocess-state">{run.state}</span>
              {run.stalled ? (
                <>
                  {" "}
                  <span className="badge" data-testid="reprocess-stalled">
                    stalled
                  </span>
                </>
              ) : null}
            </h3>
            {run.stalled ? (
              <p role="status">
                No progress for over {REPROCESS_STALLED_AFTER_MINUTES} minutes (last at {utc(run.lastProgressAt)}): its background function
                is probably lost. Stop it to start a new run.
              </p>
            ) : null}
            {active ? <StopReprocessButton runId={run.id} stalled={run.stalled} /> : null}
            {run.state !== "queued" ? (
              <div>
                <label htmlFor="reprocess-progress">Progress</label>
                <progress id="reprocess-progress" max={Math.max(run.total, 1)} value={finishedItems} style={{ width: "100%" }}>
                  {finishedItems} of {run.total}
                </progress>
              </div>
            ) : null}
            <p data-testid="reprocess-counts">
              {finishedItems} of {run.total} files: {run.done} reprocessed, {run.skipped} already current, {run.failed} failed.
            </p>
            <p>
              Started {run.startedAt ? utc(run.startedAt) : "—"}
              {run.finishedAt ? `, ${run.state === "stopped" ? "stopped" : "finished"} ${utc(run.finishedAt)}` : ""}. Last progress{" "}
              {utc(run.lastProgressAt)}.
            </p>
            {run.lastError ? (
              <p data-testid="reprocess-last-error">{run.state === "stopped" ? run.lastError : `Last error: ${run.lastError}`}</p>
            ) : null}
            {failures.length ? (
              <div className="table-scroll" tabIndex={0} role="region" aria-label="Files that could not be reprocessed">
                <table>
                  <caption>Files that could not be reprocessed (they keep their previous figures)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Item</th>
                      <th scope="col">Reason</th>
                    </tr>
                  </thead>
                  <tbody>
                    {failures.map((f) => (
                      <tr key={`${f.itemKind}-${f.itemId}`}>
                        <td>
                          {f.itemKind} {f.itemId}
                        </td>
                        <td>{f.error}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </div>
        ) : (
          <p>No reprocessing run yet.</p>
        )}
      </section>
      <h2 id="accounts-heading">Accounts</h2>
      <form method="get" action="/operator" className="search-form" role="search" aria-label="Find an account">
        <label htmlFor="account-search">Email or name</label>
        <input id="account-search" name="q" type="search" defaultValue={search} maxLength={200} />
        <button type="submit">Find</button>
      </form>
      <p className="hint" data-testid="accounts-shown">
        {search
          ? `${accounts.length === 0 ? "No account" : accounts.length === 1 ? "1 account" : `${accounts.length} accounts`} matching “${search}”${accounts.length === ACCOUNTS_SHOWN ? ` (the newest ${ACCOUNTS_SHOWN})` : ""}.`
          : `The ${ACCOUNTS_SHOWN} newest accounts; find anyone else by email or name.`}
      </p>
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
                  {a.lockedUntil ? (
                    <span className="badge">sign-in locked until {a.lockedUntil.toISOString().slice(11, 16)} UTC</span>
                  ) : null}
                  {!a.disabledAt && !a.lockedUntil ? "active" : null}
                </td>
                <td>{a.createdAt.toISOString().slice(0, 10)}</td>
                <td>
                  {a.id === operator.id ? (
                    <span className="muted">your account</span>
                  ) : (
                    <AccountActions
                      userId={a.id}
                      email={a.email}
                      role={a.role as RoleName}
                      locked={a.lockedUntil !== null}
                      disabled={a.disabledAt !== null}
                    />
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
                  <td>{x.operatorName ?? (x.details.via === "cli" ? "command line" : "deleted account")}</td>
                  <td>{x.targetEmail ?? "—"}</td>
                  <td>
                    {ACTION_LABEL[x.action]}
                    {x.action === "change_role" ? ` from ${x.details.from} to ${x.details.to}` : ""}
                    {x.action === "stop_reprocess" ? ` ${x.details.runId}: ${x.details.reason}` : ""}
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
