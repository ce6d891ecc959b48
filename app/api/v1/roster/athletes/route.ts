import { listRosterAthletes } from "@/server/http/data-api/operations/roster";

export const GET = listRosterAthletes.handle;
