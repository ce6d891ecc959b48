import { and, eq, sql, type SQL } from "drizzle-orm";
import { athleteAccessible, resultAccessible, sessionOfSubject } from "../access/access";
import type { Surface } from "../auth/oauth/scopes";
import { results } from "../db/schema";

/**
 * Who a Data API token may read sessions for (data-api.md "Three surfaces",
 * docs/data-api.md "Subject boundary"). Pure SQL conditions on `results`.
 */
export interface SessionAudience {
  subjectId: number;
  surface: Surface;
  applicationId: number;
}

/**
 * Sessions one token may open by id:
 * - session surface: those the calling application created in the subject's account;
 * - partner surface: those the subject owns or paddled in;
 * - data surface: those too, and the sessions of athletes the subject manages or coaches.
 */
export function sessionReadable(audience: SessionAudience): SQL {
  switch (audience.surface) {
    case "session":
      return and(eq(results.ownerUserId, audience.subjectId), eq(results.createdByApplicationId, audience.applicationId))!;
    case "partner":
      return sessionOfSubject(audience.subjectId);
    case "data":
      return resultAccessible(audience.subjectId);
  }
}

/**
 * Sessions a list shows: the subject's own (owned or paddled in), or with
 * `athleteId` (data surface only) those of one athlete the subject may see.
 */
export function sessionListed(audience: SessionAudience, athleteId?: number): SQL {
  if (audience.surface === "session") return sessionReadable(audience);
  if (athleteId === undefined) return sessionOfSubject(audience.subjectId);
  return and(
    resultAccessible(audience.subjectId),
    sql`exists (select 1 from result_crew sl_rc where sl_rc.result_id = ${results.id} and sl_rc.athlete_id = ${athleteId})`,
  )!;
}

/**
 * The boundary of every operation that returns data derived from sessions
 * about the subject (records today; personal bests and anything later): the
 * same sessions GET /sessions lists on the token's surface, so a session-surface
 * application never learns of a session it did not create, not even its id,
 * start or duration through a derived list (issue 14, defect 4). Derived
 * values are computed over these sessions only, so a flag such as a record's
 * `current` cannot hint at a session outside them either.
 */
export function sessionsAboutSubject(audience: SessionAudience): SQL {
  return sessionListed(audience);
}

/** Whether the subject may see this athlete (own record, managed, or coached). */
export function athleteVisibleTo(subjectId: number, athleteId: number): SQL {
  return athleteAccessible(subjectId, sql`${athleteId}::int`);
}
