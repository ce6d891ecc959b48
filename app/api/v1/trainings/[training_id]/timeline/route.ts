import { apiRoute } from "@/server/http/api-routing";
import { getTrainingTimeline } from "@/server/http/data-api/operations/trainings";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getTrainingTimeline);
