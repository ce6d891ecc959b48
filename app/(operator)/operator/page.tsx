import type { Metadata } from "next";
import { requireOperator } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listAccounts } from "@/server/operator/list-accounts";
import { countResultsByCoreVersion, getLatestReprocessRun, listReprocessFailures } from "@/server/reprocess/reprocess-runs";
import { RefreshWhileActive, StartReprocessButton } from "./reprocess-panel";

export const metadata: Metadata = { title: "Operator" };

export default async function OperatorPage() {
  await requireOperator();
  const db = getDb();
  const [accounts, stored, run] = await Promise.all([listAccounts(db), countResultsByCoreVersion(db), getLatestReprocessRun(db)]);
  const failures = run ? await listReprocessFailures(db, run.id, 20) : [];
  const active = run?.state === "queued" || run?.state === "running";
  const finishedItems = run ? run.done + run.failed + run.skipped : 0;
  return (
    <>
      <h1>Operator</h1>
      <section className="stack card" aria-labelledby="processing-heading">
        <h2 id="processing-heading">Processing core</h2>
        <p>
          Stored results: {stored.current} made by the current core v{stored.coreVersion}, {stored.older} by an older or unknown core.
          {" "}Processed trainings: {stored.trainings.current} current, {stored.trainings.older} older, unknown or failed.
        </p>
        <StartReprocessButton coreVersion={stored.coreVersion} disabled={active} />
        <RefreshWhileActive active={active} />
        {run ? (
          <div className="stack" data-testid="reprocess-run">
            <h3>
              Run {run.id} to core v{run.targetCoreVersion}: <span data-testid="reprocess-state">{run.state}</span>
            </h3>
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
              Started {run.startedAt ? run.startedAt.slice(0, 19).replace("T", " ") : "—"} UTC
              {run.finishedAt ? `, finished ${run.finishedAt.slice(0, 19).replace("T", " ")} UTC` : ""}.
            </p>
            {run.lastError ? <p>Last error: {run.lastError}</p> : null}
            {failures.length ? (
              <div className="table-scroll">
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
