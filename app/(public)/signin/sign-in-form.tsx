"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Field, FormError } from "@/app/_components/form";
import { sameOriginReturnPath } from "@/server/auth/return-path";

/** `returnTo` null: no page was requested, and this page sends the signed-in person to their role's landing page. */
export function SignInForm({ returnTo }: { returnTo: string | null }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string[]; password?: string[] }>({});

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const missing = {
      ...(email.trim() ? {} : { email: ["Enter your email"] }),
      ...(password ? {} : { password: ["Enter your password"] }),
    };
    setFieldErrors(missing);
    if (Object.keys(missing).length) return setError(null);
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
    window.location.assign(returnTo === null ? "/signin" : sameOriginReturnPath(returnTo, window.location.origin));
  }

  // A refused sign-in belongs to both fields (which one was wrong is not said): each is marked and points at the message.
  const refused = error ? { "aria-invalid": true, "aria-describedby": "signin-error" } : {};
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <FormError message={error} id="signin-error" />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        required
        value={email}
        errors={fieldErrors.email}
        onChange={(e) => {
          setEmail(e.target.value);
          setFieldErrors((f) => ({ ...f, email: undefined }));
        }}
        {...refused}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        errors={fieldErrors.password}
        onChange={(e) => {
          setPassword(e.target.value);
          setFieldErrors((f) => ({ ...f, password: undefined }));
        }}
        {...refused}
      />
      <button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
