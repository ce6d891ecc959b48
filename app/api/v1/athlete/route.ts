import { getAthlete } from "@/server/http/data-api/operations/identity";

export const GET = getAthlete.handle;
