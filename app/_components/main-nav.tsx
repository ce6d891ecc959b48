"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";

export interface NavItem {
  href: string;
  label: string;
}

/** Whether `href` is the current section: "/" only itself, others their subtree too. */
export function isCurrent(pathname: string, href: string): boolean {
  if (href === "/") return pathname === "/" || pathname.startsWith("/sessions/");
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The main menu: inline on wide screens, behind a "Menu" button under 700 px
 * (CSS decides which shows). The current section carries aria-current="page".
 */
export function MainNav({ items, children }: { items: NavItem[]; children: ReactNode }) {
  const pathname = usePathname();
  // Open on the page where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <>
      <button type="button" className="menu-button secondary" aria-expanded={open} aria-controls="main-menu" onClick={() => setOpenOn(open ? null : pathname)}>
        Menu
      </button>
      <div id="main-menu" className={open ? "main-menu open" : "main-menu"}>
        <nav aria-label="Main">
          {items.map((item) => (
            <Link key={item.href} href={item.href} aria-current={isCurrent(pathname, item.href) ? "page" : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        {children}
      </div>
    </>
  );
}
