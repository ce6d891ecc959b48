import { referenceRoutes } from "@/server/http/results-api/reference-routes";

export const GET = referenceRoutes("paces").item;
