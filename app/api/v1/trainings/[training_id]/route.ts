import { apiRoute } from "@/server/http/api-routing";
import { getTraining } from "@/server/http/data-api/operations/trainings";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getTraining);
