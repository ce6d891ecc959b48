import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { heartRateShareStatus } from "@/server/health/heart-rate-share";
import { AccountForms } from "./account-forms";
import { HeartRateShareSwitch } from "./heart-rate-share";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireUser();
  const share = await heartRateShareStatus(getDb(), user.id);
  return (
    <>
      <h1>Account</h1>
      <dl className="card">
        <dt>Name</dt>
        <dd>{user.name}</dd>
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Role</dt>
        <dd>{user.role}</dd>
      </dl>
      {/* Reached from here for every role: an athlete's menu leaves the developer portal out (docs/web-app.md "Navigation by role"). */}
      <nav aria-label="Account" className="card">
        <ul className="account-links">
          <li>
            <Link href="/exports">Exports</Link> — the files you asked for (PDF, XLSX, FIT, TCX, JSON), their state and their downloads.
          </li>
          <li>
            <Link href="/connected-apps">Connected apps</Link> — the applications you let read your data, and withdrawing that.
          </li>
          <li>
            <Link href="/developer">Developer portal</Link> — key pairs, applications and the API references, for building on your data.
          </li>
        </ul>
      </nav>
      {/* Only with an athlete profile linked to the account: the heart rate shared is that athlete's. */}
      {share.athleteId !== null ? <HeartRateShareSwitch shared={share.shared} /> : null}
      <AccountForms />
    </>
  );
}
