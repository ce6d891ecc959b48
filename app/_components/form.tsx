"use client";

import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import { formErrorsOf, type FormErrors } from "@/app/_lib/trpc";

const NO_ERRORS: FormErrors = { form: null, fields: {} };

/** Submit state for a form backed by one tRPC mutation. */
export function useSubmit<T>(action: () => Promise<T>, onSuccess: (value: T) => void | Promise<void>) {
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  async function submit(event?: { preventDefault(): void }) {
    event?.preventDefault();
    setPending(true);
    setErrors(NO_ERRORS);
    try {
      const value = await action();
      await onSuccess(value);
    } catch (error) {
      setErrors(formErrorsOf(error));
    } finally {
      setPending(false);
    }
  }
  return { pending, errors, submit, setErrors };
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

type FieldProps = {
  label: string;
  name: string;
  errors?: string[];
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "name">;

/** A labelled input with its hint and server-side errors announced to assistive technology. */
export function Field({ label, name, errors, hint, ...input }: FieldProps) {
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p className="field-error" id={errorId}>
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
