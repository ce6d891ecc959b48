import type { RoleName } from "../server/users/users";

/** Fixed accounts seeded by scripts/e2e-seed.ts before the e2e server starts. */
export const E2E_ACCOUNTS = {
  viewer: {
    email: "viewer@e2e.example",
    password: "viewer-password-e2e",
    name: "Vera Viewer",
    role: "viewer" as RoleName,
    unlimitedExternals: false,
  },
  athlete: {
    email: "athlete-role@e2e.example",
    password: "athlete-password-e2e",
    name: "Arne Athlete",
    role: "athlete" as RoleName,
    unlimitedExternals: false,
  },
  privileged: {
    email: "privileged@e2e.example",
    password: "privileged-password-e2e",
    name: "Pia Privileged",
    role: "coach" as RoleName,
    unlimitedExternals: true,
  },
  operator: {
    email: "operator@e2e.example",
    password: "operator-password-e2e",
    name: "Otto Operator",
    role: "operator" as RoleName,
    unlimitedExternals: false,
  },
};

/** Description of the seeded result whose processing failed (owned by the privileged account). */
export const E2E_UNPROCESSED_DESCRIPTION = "e2e unprocessed";

/** Owner of the seeded result made by an older processing core (e2e/reprocess.spec.ts reprocesses it). */
export const E2E_OLDER_CORE_OWNER = { email: "older-core@e2e.example", password: "older-core-password-e2e", name: "Olga Oldcore" };
