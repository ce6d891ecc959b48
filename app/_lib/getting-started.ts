import { codeSamples } from "./code-samples";
import { uploadMetadata } from "./sample-request";

/**
 * The getting-started guide's commands (issue 21), made once for the portal
 * page (`/developer`) and checked against docs/getting-started.md. The
 * results API's samples come from the same generator as the reference's
 * "Try it" panel, so the guide, the reference and the doc cannot disagree;
 * e2e/getting-started.spec.ts runs them exactly as the page prints them.
 */
export interface GuideInput {
  appUrl: string;
  /**
   * The signed-in person's first track and athlete, for the upload's metadata (1 on a fresh quickstart's
   * demo coach); null when they have none: no upload is printed then (its ids would answer 403), the page
   * prints the step that creates them instead.
   */
  ids: { trackId: number; athleteId: number } | null;
}

export interface GuideCommands {
  simulate: string;
  list: string;
  upload: string | null;
  pdf: string;
  oauthScript: string;
  oauthRun: string;
}

/** The redirect URI the guide asks to register (a loopback address the script listens on). */
export const GUIDE_REDIRECT_URI = "http://127.0.0.1:8765/callback";
/** Scopes to tick when registering the guide's application. */
export const GUIDE_SCOPES = ["openid", "profile", "email", "offline_access", "sessions:read"] as const;

export function gettingStartedCommands({ appUrl, ids }: GuideInput): GuideCommands {
  const base = `${appUrl}/api/v1`;
  const list = codeSamples({ method: "GET", url: `${base}/results`, credential: "keyPair", headers: [] }).curl;
  const upload = ids
    ? codeSamples({
        method: "POST",
        url: `${base}/results`,
        credential: "keyPair",
        headers: [],
        multipart: { fileField: "file", fileName: "session.svc", textFields: [["metadata", uploadMetadata(ids)]] },
      }).curl
    : null;
  // The result's id comes from the upload's answer: a shell variable, so the URL is double-quoted.
  const pdf = `curl -o report.pdf \\\n  -H "Authorization: Bearer $SVC_PUBLIC_KEY.$SVC_SECRET_KEY" \\\n  "${base}/results/$RESULT_ID/pdf"`;
  return {
    simulate: "npm run --silent svc -- simulate --vessel K1 --distance 500 --seed 2026 --start now --out session.svc",
    list,
    upload,
    pdf,
    oauthScript: oauthScript(appUrl),
    oauthRun: "node oauth-quickstart.mjs",
  };
}

function oauthScript(appUrl: string): string {
  return `// oauth-quickstart.mjs: the authorization code flow with openid-client (npm install openid-client)
import http from "node:http";
import * as client from "openid-client";

const issuer = new URL(${JSON.stringify(`${appUrl}/api`)});
const api = ${JSON.stringify(`${appUrl}/api/v1`)};
const redirectUri = process.env.REDIRECT_URI ?? ${JSON.stringify(GUIDE_REDIRECT_URI)};
const secret = process.env.CLIENT_SECRET; // unset for a public client

// Discovery. allowInsecureRequests only because a local run speaks plain HTTP: remove it for https.
const config = await client.discovery(issuer, process.env.CLIENT_ID, undefined, secret ? client.ClientSecretBasic(secret) : client.None(), {
  execute: ${appUrl.startsWith("http://") ? "[client.allowInsecureRequests]" : "[]"},
});

// PKCE (required), state, and nonce (required whenever scope holds openid).
const verifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const nonce = client.randomNonce();
const url = client.buildAuthorizationUrl(config, {
  redirect_uri: redirectUri,
  scope: ${JSON.stringify(GUIDE_SCOPES.join(" "))},
  code_challenge: await client.calculatePKCECodeChallenge(verifier),
  code_challenge_method: "S256",
  state,
  nonce,
  prompt: "consent", // offline_access (a refresh token) is granted with the consent prompt only
});
console.log(\`Open this address, sign in and allow:\\n\${url.href}\`);

// The browser comes back to the redirect URI: listen there for one request.
const callback = await new Promise((resolve) => {
  const { hostname, port, pathname } = new URL(redirectUri);
  const server = http.createServer((req, res) => {
    const got = new URL(req.url, redirectUri);
    if (got.pathname !== pathname) return res.writeHead(404).end();
    res.writeHead(200, { connection: "close" }).end("Done: you can close this window.");
    server.close();
    resolve(got);
  });
  server.listen(Number(port), hostname);
});

// Code exchange: checks state, PKCE, the ID token and its nonce.
const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
const { sub } = tokens.claims();
const userinfo = await client.fetchUserInfo(config, tokens.access_token, sub);

const get = async (path, token) => (await fetch(api + path, { headers: { authorization: \`Bearer \${token}\` } })).json();
const me = await get("/me", tokens.access_token);
const sessions = await get("/sessions", tokens.access_token);

// Access tokens last 10 minutes; the refresh token gives new ones (and is replaced each time).
const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
const again = await get("/me", refreshed.access_token);

console.log(JSON.stringify({ sub, userinfo, me: me.data, sessions: sessions.data.map((s) => s.id), refreshed: again.data.sub === sub }, null, 2));`;
}
