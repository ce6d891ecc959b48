import type { ReactNode } from "react";
import { AppShell } from "@/app/_components/app-shell";
import { requireUser } from "@/server/auth/current-user";
import { PortalNav } from "./developer/portal-nav";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await requireUser("/developer");
  return (
    <AppShell user={user}>
      <PortalNav />
      {children}
    </AppShell>
  );
}
