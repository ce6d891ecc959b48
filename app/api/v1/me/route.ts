import { getMe } from "@/server/http/data-api/operations/identity";

export const GET = getMe.handle;
