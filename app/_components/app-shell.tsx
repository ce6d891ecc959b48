import Link from "next/link";
import type { ReactNode } from "react";
import type { SessionUser } from "@/server/users/users";
import { MainNav, type NavItem } from "./main-nav";
import { SandboxBanner } from "./sandbox-banner";
import { SignOutButton } from "./sign-out-button";

/** The signed-in frame: navigation, the user's name, sign-out. */
export function AppShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const items: NavItem[] = [
    { href: "/home", label: "Home" },
    { href: "/", label: "Sessions" },
    ...(user.canCreateSessions ? [{ href: "/upload", label: "Upload" }] : []),
    { href: "/trainings", label: "Trainings" },
    { href: "/athletes", label: "Athletes" },
    { href: "/workouts", label: "Workouts" },
    { href: "/tracks", label: "Tracks" },
    { href: "/teams", label: "Teams" },
    { href: "/equipment", label: "Equipment" },
    { href: "/health", label: "Health" },
    { href: "/records", label: "Records" },
    { href: "/devices", label: "Devices" },
    { href: "/developer", label: "Developer" },
    ...(user.isOperator ? [{ href: "/operator/applications", label: "Operator" }] : []),
  ];
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          Paddle Results
        </Link>
        <MainNav items={items}>
          <div className="user-menu">
            <Link href="/exports">Exports</Link>
            <Link href="/connected-apps">Connected apps</Link>
            <Link href="/account" title={user.email}>
              {user.name}
            </Link>
            <SignOutButton />
          </div>
        </MainNav>
      </header>
      <main id="main" className="page">
        <SandboxBanner userId={user.id} />
        {children}
      </main>
    </>
  );
}
