import { apiRoute, byCredential } from "@/server/http/api-routing";
import { dataApiGetTrack } from "@/server/http/data-api/operations/roster";
import { getTrack } from "@/server/http/results-api/operations/roster";

// Shared path with the Data API: the credential decides (server/http/api-routing.ts).
// One folder name serves both: the Data API documents {track_id}, the results API {id}.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(byCredential({ keyPair: getTrack, accessToken: dataApiGetTrack }));
