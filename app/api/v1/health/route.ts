import { apiRoute } from "@/server/http/api-routing";
import { healthCheck } from "@/server/http/kernel/health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(healthCheck);
