import type { ReactNode } from "react";
import { AppShell } from "@/app/_components/app-shell";
import { requireOperator } from "@/server/auth/current-user";

// Non-operators get the 404 page: the section's existence is not disclosed.
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  const user = await requireOperator();
  return <AppShell user={user}>{children}</AppShell>;
}
