import Link from "next/link";
import type { ReactNode } from "react";
import { navigationFor } from "@/server/users/navigation";
import type { SessionUser } from "@/server/users/users";
import { MainNav } from "./main-nav";
import { SandboxBanner } from "./sandbox-banner";
import { SignOutButton } from "./sign-out-button";

/**
 * The signed-in frame: the navigation of the account's role, the user's name
 * (their account page, which links connected apps and the developer portal),
 * sign-out. One row at 1366 px (docs/web-app.md "Navigation by role").
 */
export function AppShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          Paddle Results
        </Link>
        <MainNav items={navigationFor(user)}>
          <div className="user-menu">
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
