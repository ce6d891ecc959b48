"use client";

import { useRouter } from "next/navigation";
import { useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** Marks every comment the person may see read (say, after joining a team with a long history). */
export function MarkAllReadButton() {
  const router = useRouter();
  const mark = useSubmit(
    () => trpc.comments.markAllRead.mutate(),
    () => router.refresh(),
  );
  return (
    <button type="button" className="secondary" disabled={mark.pending} onClick={() => mark.submit()}>
      Mark all read
    </button>
  );
}
