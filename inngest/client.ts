import { Inngest, Middleware } from "inngest";
import { getDb, type Db } from "../server/db/client";

/**
 * Hands every function the database as `ctx.db`, so handlers pass it to
 * domain code like any other caller (conventions: `db` first). The embedded
 * runner sets it to the database it works on (a test's own database in
 * tests); when a real Inngest server calls /api/inngest it is the app's.
 */
class DatabaseMiddleware extends Middleware.BaseMiddleware {
  readonly id = "paddle-results:database";

  transformFunctionInput(arg: Middleware.TransformFunctionInputArgs) {
    const given = (arg.ctx as { db?: Db }).db;
    // getDb() is only reached when nobody supplied a database: opening the
    // app's database as a side effect of a test would be a surprise.
    return { ...arg, ctx: { ...arg.ctx, db: given ?? getDb() } };
  }
}

/**
 * The one Inngest client. It reads INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY,
 * INNGEST_BASE_URL and INNGEST_DEV itself; server/config/env.ts validates
 * them and decides whether a real Inngest server or the embedded runner runs
 * the functions (docs/jobs.md).
 */
export const inngest = new Inngest({ id: "paddle-results", middleware: [DatabaseMiddleware] });
