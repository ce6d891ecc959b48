import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";

/**
 * A club website on another origin for the replay embed specs: a tiny HTTPS
 * server on https://127.0.0.1:<port> whose page frames a given URL in a
 * 640×360 iframe. Embed origins must be HTTPS (data-api.md "Embed creation
 * body"), so the test makes a throwaway self-signed certificate with openssl
 * and the browser context ignores its warning (docs/replay.md "Tests").
 */
export interface EmbedHost {
  origin: string;
  /** A page on this origin that frames `src`. */
  pageFor(src: string): string;
  close(): Promise<void>;
}

let certificate: { key: Buffer; cert: Buffer } | null = null;
function selfSignedCertificate() {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embed-host-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  certificate = { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) };
  fs.rmSync(dir, { recursive: true, force: true });
  return certificate;
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export async function startEmbedHost(): Promise<EmbedHost> {
  const server = https.createServer(selfSignedCertificate(), (req, res) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    if (url.pathname !== "/club") return void res.writeHead(404).end();
    const src = url.searchParams.get("src") ?? "about:blank";
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html><head><title>Club results</title></head><body style="margin:0"><h1 style="font:16px sans-serif">Our regatta</h1><iframe id="replay" src="${escapeAttribute(src)}" width="640" height="360" style="border:0" allow="fullscreen"></iframe></body></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    pageFor: (src) => `${origin}/club?src=${encodeURIComponent(src)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The app over HTTPS, as a deployment serves it: https://localhost:<port>
 * passing every request to the app's plain-HTTP origin. Needed where the test
 * depends on what an HTTPS club page makes Chromium send: from HTTPS to plain
 * HTTP the browser withholds the Referer (a downgrade), so only an HTTPS app
 * sees the framing origin (docs/replay.md "Who may open a launch"). On
 * `localhost`, so the app stays cross-site to the club pages on 127.0.0.1,
 * as it is to APP_URL.
 */
export interface HttpsFront {
  origin: string;
  /** The same URL of the app, through this front. */
  via(url: string): string;
  close(): Promise<void>;
}

export async function startHttpsFront(target: string): Promise<HttpsFront> {
  const upstream = new URL(target);
  const server = https.createServer(selfSignedCertificate(), (req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://localhost:${(server.address() as { port: number }).port}`;
  return {
    origin,
    via: (url) => {
      const u = new URL(url, target);
      return `${origin}${u.pathname}${u.search}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
