import { deleteReplayEmbed } from "@/server/http/data-api/operations/embeds";

export const DELETE = deleteReplayEmbed.handle;
