import { deleteAuthorization, getAuthorization } from "@/server/http/data-api/operations/identity";

export const GET = getAuthorization.handle;
export const DELETE = deleteAuthorization.handle;
