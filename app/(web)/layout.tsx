import type { ReactNode } from "react";
import { AppShell } from "@/app/_components/app-shell";
import { requireUser } from "@/server/auth/current-user";

// Every page here needs a signed-in user; the check runs on the server.
export default async function WebLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return <AppShell user={user}>{children}</AppShell>;
}
