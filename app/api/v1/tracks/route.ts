import { byCredential } from "@/server/http/api-routing";
import { dataApiListTracks } from "@/server/http/data-api/operations/roster";
import { listTracks } from "@/server/http/results-api/roster-routes";

// Shared path with the Data API: the credential decides (docs/api-routing.md).
export const GET = byCredential({ keyPair: listTracks, accessToken: dataApiListTracks.handle });
