import { getAthlete } from "@/server/http/results-api/roster-routes";

export const GET = getAthlete;
