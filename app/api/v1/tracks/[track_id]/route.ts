import { byCredential } from "@/server/http/api-routing";
import { dataApiGetTrack } from "@/server/http/data-api/operations/roster";
import { getTrack } from "@/server/http/results-api/roster-routes";

// Shared path with the Data API: the credential decides (docs/api-routing.md).
// One folder name serves both: the Data API documents {track_id}, the results API {id}.
export const GET = byCredential({ keyPair: getTrack, accessToken: dataApiGetTrack.handle });
