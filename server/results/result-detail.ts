import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, resultCrew, resultStrokes, resultWeather } from "../db/schema";
import { getAccessibleResultSummary } from "./query-results";

/** One accessible result with its crew in boat order, weather and strokes. */
export async function getResultDetail(db: Db, userId: number, resultId: number) {
  const summary = await getAccessibleResultSummary(db, userId, resultId);
  const [crew, [weather], strokes] = await Promise.all([
    db
      .select({
        seat: resultCrew.seat,
        athleteId: resultCrew.athleteId,
        athleteName: athletes.name,
        athleteSurname: athletes.surname,
        externalName: resultCrew.externalName,
        externalSurname: resultCrew.externalSurname,
        externalWeightKg: resultCrew.externalWeightKg,
      })
      .from(resultCrew)
      .leftJoin(athletes, eq(athletes.id, resultCrew.athleteId))
      .where(eq(resultCrew.resultId, resultId))
      .orderBy(asc(resultCrew.seat)),
    db.select().from(resultWeather).where(eq(resultWeather.resultId, resultId)),
    db.select().from(resultStrokes).where(eq(resultStrokes.resultId, resultId)).orderBy(asc(resultStrokes.strokeIndex)),
  ]);
  return { summary, crew, weather: weather ?? null, strokes };
}
export type ResultDetail = Awaited<ReturnType<typeof getResultDetail>>;
