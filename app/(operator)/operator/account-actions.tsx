"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

const ROLES = ["viewer", "athlete", "coach", "operator"] as const;
type Role = (typeof ROLES)[number];

/**
 * The operator's decisions on one account. Each shows only while it applies
 * (Unlock while locked, Disable or Enable, Change role once another role is
 * chosen), so a decision made hides its button; the server refuses a repeat.
 */
export function AccountActions({
  userId,
  email,
  role,
  locked,
  disabled,
}: {
  userId: number;
  email: string;
  role: Role;
  locked: boolean;
  disabled: boolean;
}) {
  const router = useRouter();
  const [nextRole, setNextRole] = useState<Role>(role);
  const done = () => router.refresh();
  const unlock = useSubmit(() => trpc.operator.unlockAccount.mutate({ userId }), done);
  return (
    <div className="stack account-actions">
      {locked ? (
        <button
          type="button"
          className="secondary"
          disabled={unlock.pending}
          aria-label={`Unlock ${email}`}
          onClick={() => unlock.submit()}
        >
          Unlock
        </button>
      ) : null}
      <FormError message={unlock.errors.form} />
      <div className="row">
        {/* aria-label, not a visually hidden <label>: an absolutely placed label escapes the table's scrolling card and widens the page. */}
        <select
          id={`role-${userId}`}
          aria-label={`Role of ${email}`}
          value={nextRole}
          onChange={(e) => setNextRole(e.target.value as Role)}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {nextRole !== role ? (
          <ConfirmButton
            label="Change role"
            ariaLabel={`Change role of ${email}`}
            title={`Make ${email} ${nextRole}?`}
            statement={`From ${role} to ${nextRole}. What the account may do changes at once, also for its key pairs and connected applications.`}
            confirmLabel="Change role"
            action={() => trpc.operator.changeRole.mutate({ userId, role: nextRole })}
            onDone={done}
          />
        ) : null}
      </div>
      {disabled ? (
        <ConfirmButton
          label="Enable"
          ariaLabel={`Enable ${email}`}
          title={`Enable ${email}?`}
          statement="The account can sign in again; its key pairs and unexpired application tokens work again."
          confirmLabel="Enable account"
          action={() => trpc.operator.enableAccount.mutate({ userId })}
          onDone={done}
        />
      ) : (
        <ConfirmButton
          label="Disable"
          ariaLabel={`Disable ${email}`}
          title={`Disable ${email}?`}
          statement="The account can no longer sign in; it is signed out everywhere, and its key pairs and application tokens stop working. Its data stays. You can enable it again."
          confirmLabel="Disable account"
          action={() => trpc.operator.disableAccount.mutate({ userId })}
          onDone={done}
        />
      )}
    </div>
  );
}
