/**
 * The `.svc` command line (a contract other tools rely on: keep it stable):
 *   npm run --silent svc -- inspect FILE
 *   npm run --silent svc -- process FILE --vessel K1 (--distance M | --duration-ms MS) [--splits N]
 *   npm run --silent svc -- process FILE --vessel K2 --training [--template T.json] [--sensitivity S]   (adds "sets")
 *   npm run --silent svc -- simulate --vessel K1 (--distance M | --duration-ms MS) --seed S --out FILE [--truth TRUTH.json] [--pace race|training] [--noise clean|noisy]
 *   npm run --silent svc -- simulate --training "6x500m/120s" (or --template T.json) --vessel K2 --seed S --out FILE [--truth TRUTH.json] [--noise clean|noisy]
 * JSON on stdout; exit 2 with one line on stderr for an invalid file or bad arguments.
 */
import { runInspect } from "./cli/inspect";
import { runProcess } from "./cli/process";
import { runSimulate } from "./cli/simulate";
import { CliUsageError } from "./cli/args";
import { InvalidSvcError } from "./errors";
import { ProcessingError } from "./process/errors";

const commands: Record<string, (argv: string[]) => Promise<unknown>> = { inspect: runInspect, process: runProcess, simulate: runSimulate };

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = commands[command ?? ""];
  try {
    if (!run) throw new CliUsageError(`usage: svc inspect|process|simulate … (unknown command "${command ?? ""}")`);
    const output = await run(rest);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof InvalidSvcError) process.stderr.write(`not a valid device session: ${error.reason}\n`);
    else if (error instanceof ProcessingError) process.stderr.write(`cannot process the session: ${error.message}\n`);
    else if (error instanceof CliUsageError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
}

// exitCode, not process.exit(): a large JSON on a pipe must drain before the process ends.
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
