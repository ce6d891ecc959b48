import { listTracks } from "@/server/http/results-api/roster-routes";

// Shared path with the Data API: the credential decides (docs/api-routing.md).
export const GET = listTracks;
