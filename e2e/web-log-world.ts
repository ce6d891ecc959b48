/** The sessions log's seeded world (scripts/e2e-seed-web-log.ts). */
export const WEB_LOG_WORLD = {
  coach: { email: "log-coach@e2e.example", password: "log-coach-password-e2e", name: "Lena Logcoach" },
  paddler: { email: "log-paddler@e2e.example", password: "log-paddler-password-e2e", name: "Pablo Logpaddler" },
  coachTrack: "Log basin",
  managedAthlete: "Mara",
  coachedAthlete: "Cato",
  coachSessions: 60,
  paddlerSessions: 12,
};
