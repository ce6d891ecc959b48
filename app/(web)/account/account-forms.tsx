"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function AccountForms() {
  const [values, setValues] = useState({ currentPassword: "", newPassword: "" });
  const password = useSubmit(
    () => trpc.account.changePassword.mutate(values),
    // A password change ends every session, this one included.
    () => signOut({ callbackUrl: "/signin" }),
  );
  const everywhere = useSubmit(
    () => trpc.account.signOutEverywhere.mutate(),
    () => signOut({ callbackUrl: "/signin" }),
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });
  return (
    <>
      <h2>Change password</h2>
      <form className="stack card" onSubmit={password.submit} noValidate>
        <FormError message={password.errors.form} />
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set("currentPassword")}
          errors={password.errors.fields.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set("newPassword")}
          errors={password.errors.fields.newPassword}
          hint="At least 10 characters. You will be signed out everywhere."
        />
        <div className="row">
          <button type="submit" disabled={password.pending}>
            Change password
          </button>
        </div>
      </form>
      <h2>Sessions</h2>
      <div className="card">
        <p>Signed in on a shared or lost device? End every session of this account, this one included.</p>
        <FormError message={everywhere.errors.form} />
        <button type="button" className="secondary" disabled={everywhere.pending} onClick={() => everywhere.submit()}>
          Sign out everywhere
        </button>
      </div>
    </>
  );
}
