import { getCatalogue } from "@/server/http/data-api/operations/equipment";

export const GET = getCatalogue.handle;
