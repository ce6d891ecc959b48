import { getTeam } from "@/server/http/data-api/operations/roster";

export const GET = getTeam.handle;
