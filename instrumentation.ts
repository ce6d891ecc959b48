/**
 * Runs once when a server instance starts: validates the environment and
 * applies pending migrations before the first request is served.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./server/startup");
  // The Inngest adapter stands above server/: it is handed in, not imported there.
  await startServer({ loadInngestOutboxSink: async () => (await import("./inngest/outbox-sink")).inngestOutboxSink });
}
