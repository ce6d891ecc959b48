import { listenRoute } from "@/server/http/listen-route";

/** `paddle-results listen`'s event stream (docs/webhooks.md "Local development"). */
export const GET = listenRoute();
export const dynamic = "force-dynamic";
