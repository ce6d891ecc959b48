import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";

/**
 * The layer rules of docs/architecture.md "Layers and the rules that keep them",
 * enforced here so they hold without anyone remembering them. Tests, scripts and
 * e2e specs may reach across layers (they set up worlds); production code may not.
 */
const layerZones = [
  {
    // The HTTP layer (both APIs' kernels, serializers' wire wrappers, admission) is an edge:
    // only the routes, tRPC and other HTTP code stand on it. Shared value rules live in server/contract.
    target: ["./server/!(http|trpc)/**", "./server/*.ts", "./inngest/**"],
    from: "./server/http",
    message:
      "Only server/http, server/trpc and app/ import server/http (docs/architecture.md); shared value rules live in server/contract, Data API shapes in server/<domain>/*-wire.ts.",
  },
  {
    // The .svc processing core is pure: it imports nothing of ours outside itself, except its CLI.
    target: ["./server/svc/!(cli)/**", "./server/svc/!(cli).ts"],
    from: ["./server/!(svc)/**", "./server/*.ts", "./app/**", "./inngest/**", "./scripts/**"],
    message: "server/svc is the pure processing core: it takes its keyring and templates as arguments (docs/architecture.md).",
  },
  {
    target: ["./server", "./inngest"],
    from: "./app",
    message: "Nothing under server/ or inngest/ imports app/: pages and routes stand on the domain, not the other way round.",
  },
  {
    // The function registry (whose functions import the domain) is imported by the route that serves it and the
    // embedded runner alone; domain code emits events through the outbox (server/events/send-event.ts).
    target: [
      "./server/!(jobs)/**",
      "./server/*.ts",
      "./server/jobs/!(embedded-runner).ts",
      "./app/!(api)/**",
      "./app/api/!(inngest)/**",
      "./inngest/functions/**",
    ],
    from: ["./inngest/index.ts", "./inngest/functions"],
    message: "Only server/jobs/embedded-runner.ts and app/api/inngest/route.ts import the Inngest function registry (docs/jobs.md).",
  },
  {
    // The value rules the wire and the domain share stand below the domain: they import nothing of ours.
    target: "./server/contract/**",
    from: ["./server/!(contract)/**", "./server/*.ts", "./inngest/**", "./app/**"],
    message:
      "server/contract holds the shared value rules and imports nothing of the domain; a Data API serializer lives beside its domain read as server/<domain>/*-wire.ts (docs/architecture.md).",
  },
  {
    // The runner and housekeeping (server/jobs) stand on the domain; the domain emits work through server/events, below it.
    target: ["./server/!(jobs|http|trpc|admin)/**", "./server/!(startup).ts"],
    from: "./server/jobs",
    message:
      "The domain does not import server/jobs (the runner and housekeeping above it): emit work with server/events/send-event.ts (docs/architecture.md).",
  },
  {
    // What the domain uses to emit work stands on the foundations alone, so every domain module may import it.
    target: "./server/events/**",
    from: ["./server/!(events|config|db|net|contract|svc)/**", "./server/!(errors).ts", "./inngest/**", "./app/**"],
    message:
      "server/events imports only server/config, server/db, server/net, server/contract, server/svc and server/errors.ts (docs/architecture.md).",
  },
  {
    // The Inngest folder (client, registry, functions, the relay's Inngest sink) stands above server/; only the embedded runner reaches it.
    target: ["./server/!(jobs)/**", "./server/*.ts", "./server/jobs/!(embedded-runner).ts"],
    from: "./inngest",
    message:
      "Nothing under server/ imports inngest/ but server/jobs/embedded-runner.ts (docs/architecture.md); event schemas live in server/events/app-events.ts.",
  },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: layerZones }],
      // A loop of value imports (type-only imports vanish at run time and are not counted).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "max-lines": ["warn", { max: 400, skipBlankLines: true, skipComments: true }],
      "max-lines-per-function": ["warn", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Tests, benchmarks and scripts build worlds across layers; the layer rules are for production code.
    files: ["**/*.test.ts", "**/*.test.tsx", "test/**", "e2e/**", "scripts/**", "packages/**"],
    rules: { "import-x/no-restricted-paths": "off", "max-lines": "off", "max-lines-per-function": "off" },
  },
  {
    // The Inngest SDK's non-public surface stays in its one adapter (docs/architecture.md "The embedded runner and the Inngest SDK").
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["server/jobs/execute-function.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "inngest/internals", message: "Only server/jobs/execute-function.ts may use the SDK's internals." },
            { name: "inngest/types", message: "Only server/jobs/execute-function.ts may use the SDK's internal types." },
          ],
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    ".data/**",
    "test-results/**",
    "playwright-report/**",
    "bench-out/**",
    "next-env.d.ts",
    "packages/*/dist/**",
    "packages/sdk/src/generated/**",
  ]),
]);
