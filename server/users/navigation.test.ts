import { describe, expect, it } from "vitest";
import { landingPath, managesClub, navigationFor, type NavLink, type NavLinkGroup } from "./navigation";

const ROLES = {
  viewer: { role: "viewer", canCreateSessions: false, isOperator: false },
  athlete: { role: "athlete", canCreateSessions: true, isOperator: false },
  coach: { role: "coach", canCreateSessions: true, isOperator: false },
  operator: { role: "operator", canCreateSessions: true, isOperator: true },
} as const;

/** Top-level labels, a group as "Club[Athletes,…]". */
const labels = (entries: (NavLink | NavLinkGroup)[]) =>
  entries.map((e) => ("items" in e ? `${e.label}[${e.items.map((i) => i.label).join(",")}]` : e.label));

describe("navigation by role", () => {
  it("an athlete sees their own data only: no club administration, no developer portal", () => {
    expect(labels(navigationFor(ROLES.athlete))).toEqual([
      "Home",
      "Sessions",
      "Upload",
      "Trainings",
      "Plans",
      "Records",
      "Health",
      "Exports",
      "Devices",
    ]);
  });
  it("a viewer sees the same without Upload", () => {
    expect(labels(navigationFor(ROLES.viewer))).toEqual([
      "Home",
      "Sessions",
      "Trainings",
      "Plans",
      "Records",
      "Health",
      "Exports",
      "Devices",
    ]);
  });
  it("a coach gets the club pages under one entry, workouts and the developer portal", () => {
    expect(labels(navigationFor(ROLES.coach))).toEqual([
      "Home",
      "Sessions",
      "Upload",
      "Trainings",
      "Plans",
      "Workouts",
      "Records",
      "Health",
      "Exports",
      "Club[Squad,Athletes,Teams,Tracks,Equipment,Devices]",
      "Developer",
    ]);
  });
  it("club administration is a coach's or an operator's, not an athlete's or a viewer's", () => {
    expect([ROLES.viewer, ROLES.athlete, ROLES.coach, ROLES.operator].map(managesClub)).toEqual([false, false, true, true]);
  });
  it("an operator's Operator entry goes to the overview, where they land", () => {
    const nav = navigationFor(ROLES.operator);
    expect(nav.at(-1)).toEqual({ href: "/operator", label: "Operator" });
    expect(landingPath(ROLES.operator)).toBe("/operator");
    expect(landingPath(ROLES.coach)).toBe("/home");
  });
});
