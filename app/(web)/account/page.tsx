import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { AccountForms } from "./account-forms";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireUser();
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
      <AccountForms />
    </>
  );
}
