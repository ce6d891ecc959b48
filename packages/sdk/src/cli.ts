#!/usr/bin/env node
/**
 * `paddle-results` command. One subcommand today:
 *
 *   paddle-results listen --api <origin> --token <prl_…> --forward-to <url> [--secret <whsec_…>] [--events a,b]
 *
 * The token may come from PADDLE_RESULTS_LISTEN_TOKEN instead (it stays out
 * of the shell's history), the origin from PADDLE_RESULTS_API.
 */
import { parseArgs } from "node:util";
import { listen, ListenError } from "./listen.js";

const USAGE = `Usage: paddle-results listen --api <origin> --token <listen token> --forward-to <local URL> [--secret <whsec_…>] [--events <type,type>]

Streams your application's webhook events and posts each one, signed as a real
delivery, to a URL on this machine. Make the listen token on the application's
page in the developer portal. Environment: PADDLE_RESULTS_API, PADDLE_RESULTS_LISTEN_TOKEN.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "listen") {
    console.error(command === undefined || command === "--help" || command === "-h" ? USAGE : `Unknown command ${command}\n\n${USAGE}`);
    return command === "--help" || command === "-h" ? 0 : 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        api: { type: "string" },
        token: { type: "string" },
        "forward-to": { type: "string" },
        secret: { type: "string" },
        events: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const api = values.api ?? process.env.PADDLE_RESULTS_API;
  const token = values.token ?? process.env.PADDLE_RESULTS_LISTEN_TOKEN;
  const forwardTo = values["forward-to"];
  if (!api || !token || !forwardTo) {
    console.error(`--api, --token and --forward-to are required\n\n${USAGE}`);
    return 2;
  }
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  try {
    await listen({
      api,
      token,
      forwardTo,
      secret: values.secret,
      events: values.events
        ?.split(",")
        .map((t) => t.trim())
        .filter(Boolean),
      signal: stop.signal,
    });
    return 0;
  } catch (error) {
    if (error instanceof ListenError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
