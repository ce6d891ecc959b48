import Link from "next/link";
import type { ReactNode } from "react";
import type { SessionUser } from "@/server/users/users";
import { SignOutButton } from "./sign-out-button";

/** The signed-in frame: navigation, the user's name, sign-out. */
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
        <nav aria-label="Main">
          <Link href="/">Sessions</Link>
          {user.canCreateSessions ? <Link href="/upload">Upload</Link> : null}
          <Link href="/athletes">Athletes</Link>
          <Link href="/tracks">Tracks</Link>
          <Link href="/teams">Teams</Link>
          <Link href="/equipment">Equipment</Link>
          <Link href="/health">Health</Link>
          <Link href="/records">Records</Link>
          <Link href="/devices">Devices</Link>
          <Link href="/developer">Developer</Link>
          {user.isOperator ? <Link href="/operator/applications">Operator</Link> : null}
        </nav>
        <div className="user-menu">
          <Link href="/connected-apps">Connected apps</Link>
          <Link href="/account" title={user.email}>
            {user.name}
          </Link>
          <SignOutButton />
        </div>
      </header>
      <main id="main" className="page">
        {children}
      </main>
    </>
  );
}
