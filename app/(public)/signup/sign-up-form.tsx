"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import { sameOriginReturnPath } from "@/server/auth/return-path";

export function SignUpForm({ returnTo }: { returnTo: string }) {
  const router = useRouter();
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const { pending, errors, submit } = useSubmit(
    () => trpc.account.signUp.mutate(values),
    async () => {
      await signIn("credentials", { email: values.email, password: values.password, redirect: false });
      router.replace(sameOriginReturnPath(returnTo, window.location.origin));
      router.refresh();
    },
  );
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [key]: e.target.value });

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <Field label="Name" name="name" autoComplete="name" required value={values.name} onChange={set("name")} errors={errors.fields.name} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={values.email}
        onChange={set("email")}
        errors={errors.fields.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={values.password}
        onChange={set("password")}
        errors={errors.fields.password}
        hint="At least 10 characters."
      />
      <button type="submit" disabled={pending}>
        {pending ? "Creating account…" : "Create account"}
      </button>
    </form>
  );
}
