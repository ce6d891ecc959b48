import { downloadReplayArtifact } from "@/server/http/data-api/operations/embeds";

export const GET = downloadReplayArtifact;
