"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Field, FormError } from "@/app/_components/form";
import { sameOriginReturnPath } from "@/server/http/return-path";

export function SignInForm({ returnTo }: { returnTo: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email, password, redirect: false });
    if (!result || result.error) {
      setPending(false);
      // The server's message: the same for unknown email and wrong password.
      setError(result?.error && result.error !== "CredentialsSignin" ? result.error : "Email or password is incorrect.");
      return;
    }
    // A full navigation so every server component sees the new session; checked again here, in the browser's own URL terms.
    window.location.assign(sameOriginReturnPath(returnTo, window.location.origin));
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <FormError message={error} />
      <Field label="Email" name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
