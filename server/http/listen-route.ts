import { getDb, type Db } from "../db/client";
import { AppError } from "../errors";
import {
  authenticateListenToken,
  currentListenCursor,
  cursorAfter,
  listenTokenActive,
  readListenEvents,
  type ListenCursor,
} from "../webhooks/listen-tokens";

/**
 * `GET /api/webhooks/listen` (docs/webhooks.md "Local development"): an
 * application's webhook events as Server-Sent Events, for `paddle-results
 * listen`. Outside /api/v1: a listen token is not an API credential.
 *
 * Every instance serves it from Postgres alone (it polls `webhook_events`),
 * so a stream reads the events any instance wrote. Each event is
 * `id: <msg_… webhook-id>`, `event: <type>`, `data: <the delivery's exact
 * JSON body>`; a reconnection's `Last-Event-ID` resumes just after that
 * event (an unknown one starts from now, said in a comment). A comment every
 * 15 s keeps proxies from closing an idle stream. The stream ends when the
 * client goes away or the token is revoked (a last `event: revoked`).
 */
export interface ListenOptions {
  db?: Db;
  pollMs?: number;
  heartbeatMs?: number;
}

const STATUS = { unauthenticated: 401, invalid: 400 } as const;

/** This route's error mapper: `{error, message}` JSON, as the web app's plain routes answer. */
function errorResponse(error: AppError): Response {
  const status = error.code === "unauthenticated" ? STATUS.unauthenticated : STATUS.invalid;
  return Response.json(
    { error: error.code, message: error.message },
    {
      status,
      headers: {
        "Cache-Control": "no-store",
        ...(status === 401 ? { "WWW-Authenticate": 'Bearer realm="webhooks-listen"' } : {}),
      },
    },
  );
}

export function listenRoute(options: ListenOptions = {}) {
  return async (request: Request): Promise<Response> => {
    const db = options.db ?? getDb();
    const pollMs = options.pollMs ?? 1_000;
    const heartbeatMs = options.heartbeatMs ?? 15_000;
    let credential;
    try {
      credential = await authenticateListenToken(db, request.headers.get("authorization"));
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      throw error;
    }
    const lastEventId = request.headers.get("last-event-id")?.trim();
    const resumed = lastEventId ? await cursorAfter(db, credential.applicationId, lastEventId) : null;
    let cursor: ListenCursor = resumed ?? (await currentListenCursor(db));

    const encoder = new TextEncoder();
    let closed = false;
    let wake: (() => void) | undefined;
    const stop = () => {
      closed = true;
      wake?.();
    };
    request.signal.addEventListener("abort", stop);
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });

    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (text: string) => {
          if (!closed) controller.enqueue(encoder.encode(text));
        };
        send(`retry: 2000\n: listening for application events${lastEventId && !resumed ? "; Last-Event-ID unknown, from now on" : ""}\n\n`);
        let lastWrite = Date.now();
        try {
          while (!closed) {
            if (!(await listenTokenActive(db, credential.tokenId))) {
              send("event: revoked\ndata: {}\n\n");
              break;
            }
            const page = await readListenEvents(db, credential.applicationId, cursor);
            cursor = page.cursor;
            for (const event of page.events) send(`id: ${event.messageId}\nevent: ${event.type}\ndata: ${event.body}\n\n`);
            if (page.events.length) lastWrite = Date.now();
            else if (Date.now() - lastWrite >= heartbeatMs) {
              send(": heartbeat\n\n");
              lastWrite = Date.now();
            }
            if (page.events.length < 100) await sleep(pollMs);
          }
        } catch (error) {
          // The database went away mid-stream: end it; the client reconnects and resumes with Last-Event-ID.
          if (!closed) console.error("webhooks listen stream failed", error);
        }
        closed = true;
        request.signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      },
      cancel() {
        stop();
      },
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
        Connection: "keep-alive",
      },
    });
  };
}
