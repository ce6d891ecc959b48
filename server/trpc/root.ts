import { router } from "./init";
import { accountRouter } from "./routers/account";
import { applicationsRouter } from "./routers/applications";
import { athleteLinksRouter } from "./routers/athlete-links";
import { athletesRouter } from "./routers/athletes";
import { commentsRouter } from "./routers/comments";
import { devicesRouter } from "./routers/devices";
import { equipmentRouter } from "./routers/equipment";
import { exportsRouter } from "./routers/exports";
import { healthRouter } from "./routers/health";
import { keysRouter } from "./routers/keys";
import { listenTokensRouter } from "./routers/listen-tokens";
import { loadRouter } from "./routers/load";
import { operatorRouter } from "./routers/operator";
import { plansRouter } from "./routers/plans";
import { sandboxRouter } from "./routers/sandbox";
import { sessionsRouter } from "./routers/sessions";
import { teamsRouter } from "./routers/teams";
import { tracksRouter } from "./routers/tracks";
import { trainingsRouter } from "./routers/trainings";
import { webhooksRouter } from "./routers/webhooks";
import { workoutsRouter } from "./routers/workouts";

/** The web application's own API (not public): one router per area. */
export const appRouter = router({
  account: accountRouter,
  athletes: athletesRouter,
  athleteLinks: athleteLinksRouter,
  tracks: tracksRouter,
  teams: teamsRouter,
  keys: keysRouter,
  sessions: sessionsRouter,
  equipment: equipmentRouter,
  health: healthRouter,
  devices: devicesRouter,
  exports: exportsRouter,
  applications: applicationsRouter,
  operator: operatorRouter,
  workouts: workoutsRouter,
  sandbox: sandboxRouter,
  webhooks: webhooksRouter,
  listenTokens: listenTokensRouter,
  trainings: trainingsRouter,
  comments: commentsRouter,
  plans: plansRouter,
  load: loadRouter,
});

export type AppRouter = typeof appRouter;
