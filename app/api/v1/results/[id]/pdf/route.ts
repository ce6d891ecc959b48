import { resultPdfRoute } from "@/server/http/results-api/pdf-route";

export const GET = resultPdfRoute;
