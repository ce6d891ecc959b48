/** @type {import('next').NextConfig} */
const nextConfig = {
  // Packages that load WebAssembly, native addons or their own files at run
  // time must stay outside the server bundle.
  // exceljs (and its jszip) use dynamic requires and Node streams that bundling breaks.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "oidc-provider",
    "postgres",
    "@react-pdf/renderer",
    "exceljs",
    "jszip",
  ],
  poweredByHeader: false,
  // Git worktrees whose node_modules is a symlink to another checkout build with
  // NEXT_TURBOPACK_ROOT set to a folder containing both (Turbopack refuses files outside its root).
  ...(process.env.NEXT_TURBOPACK_ROOT ? { turbopack: { root: process.env.NEXT_TURBOPACK_ROOT } } : {}),
  typedRoutes: false,
  // `npm test` runs tsc over the whole tree (tests included) as its own stage before the build;
  // it sets NEXT_SKIP_TYPECHECK=1 so the build does not check the same types a second time.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      {
        // Later entries win: share tokens are credentials, never sent on in a Referer.
        source: "/share/:token",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex" },
        ],
      },
      {
        // OAuth sign-in and consent pages (docs/oauth.md): never framed (clickjacking a consent
        // button), never leaking the request in a Referer, never cached.
        source: "/oauth/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "Cache-Control", value: "no-store" },
        ],
      },
      {
        // The authorization server itself: its redirects carry codes and its pages must not be framed.
        source: "/api/oauth/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
    ];
  },
  async rewrites() {
    // Discovery (docs/oauth.md "Mounting"). The issuer is ${APP_URL}/api, so RFC 8414 puts its
    // metadata at /.well-known/<suffix>/api and OpenID Connect Discovery at
    // /api/.well-known/openid-configuration; the plain forms answer too. All of them are
    // oidc-provider's one discovery document, served by app/api/oauth/[...oidc]/route.ts.
    const discovery = "/api/oauth/.well-known/openid-configuration";
    return [
      { source: "/.well-known/openid-configuration/api", destination: discovery },
      { source: "/.well-known/oauth-authorization-server/api", destination: discovery },
      { source: "/.well-known/openid-configuration", destination: discovery },
      { source: "/.well-known/oauth-authorization-server", destination: discovery },
      { source: "/api/.well-known/openid-configuration", destination: discovery },
    ];
  },
};

export default nextConfig;
