import { referenceRoutes } from "@/server/http/results-api/reference-routes";

export const GET = referenceRoutes("vessels").item;
