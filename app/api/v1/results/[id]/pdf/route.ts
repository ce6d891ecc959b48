import { apiRoute } from "@/server/http/api-routing";
import { getResultPdf } from "@/server/http/results-api/operations/results";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getResultPdf);
