import { apiRoute, byCredential } from "@/server/http/api-routing";
import { dataApiListTracks } from "@/server/http/data-api/operations/roster";
import { listTracks } from "@/server/http/results-api/operations/roster";

// Shared path with the Data API: the credential decides (server/http/api-routing.ts).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(byCredential({ keyPair: listTracks, accessToken: dataApiListTracks }));
