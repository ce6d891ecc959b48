"use client";

import { useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
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

export function FormError({ message, id }: { message: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert" id={id}>
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
  const describedBy = describedByOf(name, hint, errors);
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy} {...input} />
      <HintAndErrors name={name} hint={hint} errors={errors} />
    </div>
  );
}

type SelectFieldProps = {
  label: string;
  name: string;
  errors?: string[];
  hint?: ReactNode;
  options: { value: string; label: string }[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name">;

/** A labelled select, wired to its hint and errors like Field. */
export function SelectField({ label, name, errors, hint, options, ...select }: SelectFieldProps) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select
        id={name}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedByOf(name, hint, errors)}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <HintAndErrors name={name} hint={hint} errors={errors} />
    </div>
  );
}

const describedByOf = (name: string, hint: ReactNode, errors: string[] | undefined) =>
  [hint ? `${name}-hint` : null, errors?.length ? `${name}-error` : null].filter(Boolean).join(" ") || undefined;

function HintAndErrors({ name, hint, errors }: { name: string; hint?: ReactNode; errors?: string[] }) {
  return (
    <>
      {hint ? (
        <p className="hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p className="field-error" id={`${name}-error`}>
          {errors.join(" ")}
        </p>
      ) : null}
    </>
  );
}
