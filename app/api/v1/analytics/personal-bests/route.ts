import { getPersonalBests } from "@/server/http/data-api/operations/analytics";

export const GET = getPersonalBests.handle;
