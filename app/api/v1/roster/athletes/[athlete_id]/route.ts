import { getRosterAthlete } from "@/server/http/data-api/operations/roster";

export const GET = getRosterAthlete.handle;
