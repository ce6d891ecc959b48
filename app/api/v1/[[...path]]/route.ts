import { unknownPathRoute } from "@/server/http/api-routing";

// Every path under /api/v1 no operation serves: a JSON 404 in the credential's API shape.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathRoute();
