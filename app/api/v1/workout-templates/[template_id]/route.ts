import { apiRoute } from "@/server/http/api-routing";
import { getWorkoutTemplate } from "@/server/http/data-api/operations/workouts";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(getWorkoutTemplate);
