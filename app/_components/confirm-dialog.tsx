"use client";

import { useId, useRef, type ReactNode } from "react";
import { FormError, useSubmit } from "@/app/_components/form";

/**
 * Every destructive action goes through this: a button that opens a modal
 * dialog (native <dialog>: focus trapped, Escape cancels) saying what will
 * happen, with Cancel and the action. With `refusal` the dialog explains why
 * it cannot be done and offers no action (the server refuses it too).
 * `children` go below the statement: inputs the action reads (e.g. a reason).
 */
export function ConfirmButton<T>({
  label,
  ariaLabel,
  title,
  statement,
  refusal,
  confirmLabel,
  action,
  onDone,
  buttonClassName = "secondary",
  children,
}: {
  label: string;
  ariaLabel?: string;
  title: string;
  statement?: ReactNode;
  refusal?: string | null;
  confirmLabel: string;
  action: () => Promise<T>;
  onDone: (value: T) => void | Promise<void>;
  buttonClassName?: string;
  children?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const { pending, errors, submit, setErrors } = useSubmit(action, async (value) => {
    dialog.current?.close();
    await onDone(value);
  });
  const open = () => {
    setErrors({ form: null, fields: {} });
    dialog.current?.showModal();
  };
  return (
    <>
      <button type="button" className={buttonClassName} aria-label={ariaLabel} aria-haspopup="dialog" onClick={open}>
        {label}
      </button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId}>
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId} className="stack">
          {refusal ? <p className="form-error">{refusal}</p> : statement ? <p>{statement}</p> : null}
          {refusal ? null : children}
        </div>
        <FormError message={errors.form} />
        <div className="row dialog-actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            {refusal ? "Close" : "Cancel"}
          </button>
          {refusal ? null : (
            <button type="button" className="danger" disabled={pending} onClick={() => submit()}>
              {confirmLabel}
            </button>
          )}
        </div>
      </dialog>
    </>
  );
}
