import type { SessionUser } from "./users";

export interface NavLink {
  href: string;
  label: string;
}
export interface NavLinkGroup {
  label: string;
  items: NavLink[];
}

/**
 * The main navigation for an account's role (docs/web-app.md "Navigation by
 * role"). The account role is the only input: an athlete's own data (sessions,
 * trainings, records, health, exports, devices) for everyone; club administration
 * (athletes, teams, tracks, equipment, with devices) and the workout library
 * and developer portal with a coach role; the operator overview for operators.
 * The pages themselves keep their own access checks: the menu only decides
 * what a person is shown, not what they may open.
 */
export function navigationFor(user: Pick<SessionUser, "role" | "canCreateSessions" | "isOperator">): (NavLink | NavLinkGroup)[] {
  const manages = managesClub(user);
  return [
    { href: "/home", label: "Home" },
    { href: "/", label: "Sessions" },
    ...(user.canCreateSessions ? [{ href: "/upload", label: "Upload" }] : []),
    { href: "/trainings", label: "Trainings" },
    // Planned workouts and their compliance (issue 28 §1, docs/plans.md).
    { href: "/plans", label: "Plans" },
    ...(manages ? [{ href: "/workouts", label: "Workouts" }] : []),
    { href: "/records", label: "Records" },
    { href: "/health", label: "Health" },
    // Where a coach looks for the files they asked for (issue 28 §6): not only from home and the account page.
    { href: "/exports", label: "Exports" },
    ...(manages
      ? [
          {
            label: "Club",
            items: [
              // Training load of every athlete a coach sees (docs/load.md "Pages"); in the group so the
              // 1366 px menu stays one row (e2e/phone-first.spec.ts).
              { href: "/squad", label: "Squad" },
              { href: "/athletes", label: "Athletes" },
              { href: "/teams", label: "Teams" },
              { href: "/tracks", label: "Tracks" },
              { href: "/equipment", label: "Equipment" },
              { href: "/devices", label: "Devices" },
            ],
          },
          { href: "/developer", label: "Developer" },
        ]
      : [{ href: "/devices", label: "Devices" }]),
    ...(user.isOperator ? [{ href: "/operator", label: "Operator" }] : []),
  ];
}

/**
 * Club administration (adding athletes, creating teams) is a coach's: the
 * menu's Club group and the pages' "Add athlete" and "Create team" offers
 * show for a coach or operator only (docs/web-app.md "A new coach's defects").
 */
export function managesClub(user: Pick<SessionUser, "role">): boolean {
  return user.role === "coach" || user.role === "operator";
}

/**
 * Where a sign-in without a requested page lands (docs/web-app.md "Squad views"): an operator on the
 * operator overview, a coach on their home (the season at a glance, what is waiting; the log is one
 * click away in the menu and on the home), everyone else on their log.
 */
export function landingPath(user: Pick<SessionUser, "isOperator" | "role">): string {
  return user.isOperator ? "/operator" : user.role === "coach" ? "/home" : "/";
}
