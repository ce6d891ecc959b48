"use client";

import { useRouter } from "next/navigation";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { trpc } from "@/app/_lib/trpc";

export function RevokeAccessButton({ applicationId, name }: { applicationId: number; name: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke access"
      ariaLabel={`Revoke access for ${name}`}
      buttonClassName="danger"
      title={`Revoke ${name}'s access?`}
      statement={`${name} loses access to your data; its tokens stop working now. It can only get back in if you authorize it again.`}
      confirmLabel="Revoke access"
      action={() => trpc.applications.revokeConnected.mutate({ applicationId })}
      onDone={() => router.refresh()}
    />
  );
}
