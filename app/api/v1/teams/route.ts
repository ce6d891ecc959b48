import { listTeams } from "@/server/http/data-api/operations/roster";

export const GET = listTeams.handle;
