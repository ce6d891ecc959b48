import type { ReactNode } from "react";

// Sign-in and consent for OAuth applications: no site navigation, nothing to
// click away to; next.config.mjs forbids framing and referrers on these pages.
export default function OAuthLayout({ children }: { children: ReactNode }) {
  return <main className="page narrow">{children}</main>;
}
