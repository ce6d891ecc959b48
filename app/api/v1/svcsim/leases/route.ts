import { apiRoute } from "@/server/http/api-routing";
import { renewReplayLease } from "@/server/http/data-api/operations/embeds";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(renewReplayLease);
