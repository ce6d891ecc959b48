/**
 * Limits of a plan the form shows as well as the server checks (no zod here:
 * the plan form imports it into the browser).
 */
/** Notes for the athletes: whoever sees the plan sees them (not the coach-private notes of docs/comments.md). */
export const PLAN_NOTES_MAX = 1000;
export const PLAN_TITLE_MAX = 128;
