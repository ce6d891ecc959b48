"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";

export interface NavItem {
  href: string;
  label: string;
}

/** A named group of links (the club pages): one disclosure entry on wide screens. */
export interface NavGroup {
  label: string;
  items: NavItem[];
}

export type NavEntry = NavItem | NavGroup;

/** Whether `href` is the current section: "/" only itself, others their subtree too. */
export function isCurrent(pathname: string, href: string): boolean {
  if (href === "/") return pathname === "/" || pathname.startsWith("/sessions/");
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The main menu: inline on wide screens, behind a "Menu" button under 700 px
 * (CSS decides which shows). The current section carries aria-current="page".
 */
export function MainNav({ items, children }: { items: NavEntry[]; children: ReactNode }) {
  const pathname = usePathname();
  // Open on the page where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <>
      <button
        type="button"
        className="menu-button secondary"
        aria-expanded={open}
        aria-controls="main-menu"
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        Menu
      </button>
      <div id="main-menu" className={open ? "main-menu open" : "main-menu"}>
        <nav aria-label="Main">
          {items.map((item) =>
            "items" in item ? (
              <NavDisclosure key={item.label} group={item} pathname={pathname} />
            ) : (
              <Link key={item.href} href={item.href} aria-current={isCurrent(pathname, item.href) ? "page" : undefined}>
                {item.label}
              </Link>
            ),
          )}
        </nav>
        {children}
      </div>
    </>
  );
}

/**
 * A disclosure (button + list of links, the WAI-ARIA navigation pattern, not
 * an ARIA menu): on wide screens a drop-down that closes on Escape, a click
 * outside or a followed link; on a phone the list shows in place under its
 * heading (CSS), since the whole menu is already behind "Menu".
 */
function NavDisclosure({ group, pathname }: { group: NavGroup; pathname: string }) {
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const ref = useRef<HTMLDivElement>(null);
  const id = `nav-group-${group.label.toLowerCase()}`;
  const current = group.items.some((i) => isCurrent(pathname, i.href));
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpenOn(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpenOn(null);
      ref.current?.querySelector("button")?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className={open ? "nav-group open" : "nav-group"} ref={ref}>
      {/* aria-current="true" on the entry: "the current page is in this group". */}
      <button
        type="button"
        className="nav-group-button"
        aria-expanded={open}
        aria-controls={id}
        aria-current={current ? "true" : undefined}
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        {group.label}
        <span aria-hidden="true"> ▾</span>
      </button>
      <span className="nav-group-heading">{group.label}</span>
      <ul id={id} className="nav-group-list">
        {group.items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} aria-current={isCurrent(pathname, item.href) ? "page" : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
