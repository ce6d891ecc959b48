import { createReplayEmbed } from "@/server/http/data-api/operations/embeds";

export const POST = createReplayEmbed.handle;
