"use client";

import { useRouter } from "next/navigation";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { trpc } from "@/app/_lib/trpc";

const ACTIONS = {
  athlete: (id: number) => trpc.athletes.delete.mutate({ id }),
  track: (id: number) => trpc.tracks.delete.mutate({ id }),
  team: (id: number) => trpc.teams.delete.mutate({ id }),
  device: (id: number) => trpc.devices.delete.mutate({ deviceId: id }),
  keyPair: (id: number) => trpc.keys.delete.mutate({ id }),
} as const;

const NOUN = { athlete: "athlete", track: "track", team: "team", device: "unit", keyPair: "key pair" } as const;

/**
 * Delete an athlete, track, team, device or key pair: the dialog states what
 * happens to linked sessions (`statement`, computed on the server by the
 * domain's …Deletion function), or why it cannot be deleted (`refusal`).
 */
export function DeleteEntityButton({
  kind,
  id,
  name,
  statement,
  refusal,
  redirectTo,
}: {
  kind: keyof typeof ACTIONS;
  id: number;
  name: string;
  statement: string;
  refusal?: string | null;
  /** Where to go afterwards; unset: stay and refresh (a list). */
  redirectTo?: string;
}) {
  const router = useRouter();
  return (
    <ConfirmButton
      label={`Delete ${NOUN[kind]}`}
      ariaLabel={`Delete ${NOUN[kind]} ${name}`}
      title={`Delete ${NOUN[kind]} “${name}”?`}
      statement={statement}
      refusal={refusal}
      confirmLabel={`Delete ${NOUN[kind]}`}
      action={() => ACTIONS[kind](id)}
      onDone={() => {
        if (redirectTo) router.push(redirectTo);
        router.refresh();
      }}
    />
  );
}
