/**
 * `npm run lint:layers`: the folder order of docs/architecture.md "Layers and the rules that keep them",
 * defined here once, and two figures about the production code's imports:
 *
 * - imports that run back up a layer (a file importing a file of a higher layer), counted and listed;
 * - import cycles, type-only imports included (ESLint's import-x/no-cycle skips type imports).
 *
 * Exits 1 when there is any cycle or when the upward imports exceed UPWARD_BUDGET, so the figure can only
 * go down. Tests, test support, e2e specs, scripts and packages are not counted (they build worlds across
 * layers), but an import of theirs never makes a production file's layer wrong either.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Top to bottom. A file belongs to the layer of the longest folder or file prefix that matches its path. */
export const LAYERS: readonly { name: string; paths: readonly string[] }[] = [
  { name: "pages and routes", paths: ["app", "proxy.ts", "instrumentation.ts"] },
  { name: "serving", paths: ["server/trpc", "server/http"] },
  { name: "runner", paths: ["inngest", "server/jobs", "server/startup.ts", "server/admin", "server/svc/cli.ts", "server/svc/cli"] },
  { name: "domain", paths: ["server"] },
  { name: "events", paths: ["server/events"] },
  { name: "foundations", paths: ["server/contract", "server/net", "server/config", "server/db", "server/errors.ts"] },
  { name: "core", paths: ["server/svc"] },
];

/** The most upward imports allowed; lower it when the figure drops. */
export const UPWARD_BUDGET = 0;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Files outside the layers: they may import anything and are not counted. */
export function isExempt(rel: string): boolean {
  return (
    /\.test\.tsx?$/.test(rel) ||
    /^(test|e2e|scripts|packages|node_modules|\.next)\//.test(rel) ||
    rel.endsWith(".d.ts") ||
    !/\.tsx?$/.test(rel)
  );
}

/** The index in LAYERS of a repository-relative path, or -1 when no layer claims it. */
export function layerOf(rel: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((layer, index) => {
    for (const p of layer.paths) {
      if ((rel === p || rel.startsWith(`${p}/`)) && p.length > bestLength) {
        best = index;
        bestLength = p.length;
      }
    }
  });
  return best;
}

export type ImportGraph = Map<string, Set<string>>;

/** Every production file's imports of other repository files (type-only, re-exports and dynamic imports included). */
export function buildImportGraph(root = ROOT): ImportGraph {
  const configPath = path.join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host = ts.createCompilerHost(parsed.options);
  const graph: ImportGraph = new Map();
  for (const file of parsed.fileNames) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    if (isExempt(rel)) continue;
    const info = ts.preProcessFile(ts.sys.readFile(file) ?? "", true, true);
    const targets = new Set<string>();
    for (const imported of info.importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, file, parsed.options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.relative(root, resolved.resolvedFileName).split(path.sep).join("/");
      if (!isExempt(target)) targets.add(target);
    }
    graph.set(rel, targets);
  }
  return graph;
}

/** Imports whose target sits in a higher layer than their source. */
export function upwardImports(graph: ImportGraph): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from);
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (fromLayer >= 0 && toLayer >= 0 && toLayer < fromLayer) found.push({ from, to });
    }
  }
  return found.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** The strongly connected components with more than one file (or a file importing itself): each is a cycle. */
export function importCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  // Iterative Tarjan: the graph is deep enough that recursion is best avoided.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (graph.get(node) ?? new Set<string>()).values() });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const step = frame.next.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = graph.get(frame.node)?.has(frame.node) ?? false;
        if (component.length > 1 || selfImport) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

function main(): void {
  const graph = buildImportGraph();
  const upward = upwardImports(graph);
  const cycles = importCycles(graph);
  console.log("Layer order, top to bottom (an import may only run down or stay in its layer):");
  LAYERS.forEach((layer, i) => console.log(`  ${i + 1}. ${layer.name}: ${layer.paths.join(", ")}`));
  console.log("");
  for (const { from, to } of upward) console.log(`  up: ${from} -> ${to} (${LAYERS[layerOf(from)].name} -> ${LAYERS[layerOf(to)].name})`);
  for (const cycle of cycles) console.log(`  cycle: ${cycle.join(" <-> ")}`);
  console.log(
    `${upward.length} imports run back up a layer (budget ${UPWARD_BUDGET}); ${cycles.length} import cycles (type imports included).`,
  );
  if (cycles.length > 0 || upward.length > UPWARD_BUDGET) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
