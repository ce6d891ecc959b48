import { getProgression } from "@/server/http/data-api/operations/analytics";

export const GET = getProgression.handle;
