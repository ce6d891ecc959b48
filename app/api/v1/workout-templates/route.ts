import { apiRoute } from "@/server/http/api-routing";
import { listWorkoutTemplates } from "@/server/http/data-api/operations/workouts";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listWorkoutTemplates);
