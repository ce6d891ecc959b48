import { renewReplayLease } from "@/server/http/data-api/operations/embeds";

export const POST = renewReplayLease;
