import { listAthletes } from "@/server/http/results-api/roster-routes";

export const GET = listAthletes;
