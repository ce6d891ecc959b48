import { listSessionStrokes } from "@/server/http/data-api/operations/sessions";

export const GET = listSessionStrokes.handle;
