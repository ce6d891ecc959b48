"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const PAGES = [
  { href: "/developer", label: "Overview" },
  { href: "/developer/keys", label: "Key pairs" },
  { href: "/developer/applications", label: "Applications" },
  { href: "/developer/docs/results-api", label: "Results API reference" },
  { href: "/developer/docs/data-api", label: "Data API reference" },
  { href: "/developer/changelog", label: "Changelog" },
];

/** The portal's own pages; the one the person is on (or inside) carries aria-current="page". */
export function PortalNav() {
  const pathname = usePathname();
  const current = (href: string) => (href === "/developer" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label="Developer portal" className="portal-nav">
      {PAGES.map((page) => (
        <Link key={page.href} href={page.href} aria-current={current(page.href) ? "page" : undefined}>
          {page.label}
        </Link>
      ))}
    </nav>
  );
}
