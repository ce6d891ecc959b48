import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { gettingStartedCommands, GUIDE_REDIRECT_URI, GUIDE_SCOPES, type GuideCommands } from "@/app/_lib/getting-started";
import { ownUploadIds } from "@/app/_lib/own-upload-ids";
import { requireUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Developer portal: getting started" };

/**
 * The portal's front page is the getting-started guide (issue 21): every
 * command is printed from app/_lib/getting-started.ts, which docs/getting-started.md
 * mirrors, and e2e/getting-started.spec.ts runs them as printed here.
 */
export default async function DeveloperPage() {
  const user = await requireUser("/developer");
  const { appUrl, ALLOW_HTTP_LOOPBACK } = getEnv();
  const db = getDb();
  const ids = await ownUploadIds(db, user.id);
  const commands = gettingStartedCommands({ appUrl, ids });
  const base = `${appUrl}/api/v1`;
  return (
    <>
      <h1>Developer portal</h1>
      <div className="card guide-intro">
        <p>
          Two public REST APIs share one base address: <code>{base}</code>. The <strong>results API</strong> (upload and read results,
          reference tables) takes a <Link href="/developer/keys">key pair</Link>; the <strong>Data API</strong> (read-only,
          privacy-projected) takes OAuth 2.1 access tokens of an <Link href="/developer/applications">application</Link> you register.
        </p>
        <p>
          References: <Link href="/developer/docs/results-api">results API reference</Link> (OpenAPI 3.1:{" "}
          <a href="/api/docs/results-api.json">/api/docs/results-api.json</a>) ·{" "}
          <Link href="/developer/docs/data-api">Data API reference</Link> (OpenAPI 3.1:{" "}
          <a href="/api/docs/data-api.json">/api/docs/data-api.json</a>), each with a “Try it” panel.
        </p>
      </div>

      <h2 id="getting-started">Getting started</h2>
      <p className="muted">
        About ten minutes from nothing to your first upload and your first Data API call. The commands run in a shell (bash or zsh) with{" "}
        <code>curl</code> and Node.js 20 or later, from a checkout of this project.
      </p>
      <GuideSteps
        commands={commands}
        appUrl={appUrl}
        httpLoopback={ALLOW_HTTP_LOOPBACK}
        canUpload={user.canCreateSessions}
        hasTrackAndAthlete={ids !== null}
      />
    </>
  );
}

function Command({ name, children }: { name: keyof GuideCommands; children: string }) {
  return (
    <div className="guide-command">
      <pre className="response-body" tabIndex={0} data-testid="guide-command" data-command={name}>
        <code>{children}</code>
      </pre>
      <CopyButton value={children} label="Copy" />
    </div>
  );
}

function Step({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li>
      <h3>{title}</h3>
      {children}
    </li>
  );
}

function GuideSteps(props: {
  commands: GuideCommands;
  appUrl: string;
  httpLoopback: boolean;
  canUpload: boolean;
  hasTrackAndAthlete: boolean;
}) {
  const { commands, appUrl } = props;
  return (
    <ol className="stack guide">
      <Step title="1. Create a key pair">
        <p>
          On <Link href="/developer/keys">Key pairs</Link>, create one and copy both keys (the secret is shown once). Put them in the
          environment; every sample reads them from there and never contains a credential:
        </p>
        <pre className="response-body">
          <code>{"export SVC_PUBLIC_KEY=svcpk_…\nexport SVC_SECRET_KEY=svcsk_…"}</code>
        </pre>
      </Step>
      <Step title="2. List your results">
        <Command name="list">{commands.list}</Command>
        <p className="muted">
          The answer is <code>{"{data: [...], pagination}"}</code>; a key acts with your account’s role and access.
        </p>
      </Step>
      <Step title="3. Upload a session">
        <p>
          A device file to upload: the project’s simulator makes one (a K1 over 500 m), recorded ten minutes ago (<code>--start now</code>),
          so it is at the top of both APIs’ newest-first lists.
        </p>
        <Command name="simulate">{props.commands.simulate}</Command>
        <p>
          Then upload it with its metadata: boat (<code>vessel_id</code> 1 is K1), distance, one of your tracks and your athletes in boat
          order
          {props.hasTrackAndAthlete ? " (the sample names your first track and athlete)" : ""}.
        </p>
        {!props.canUpload ? (
          <p className="notice">
            Your account’s role cannot create sessions: sign in as a coach (on a quickstart, the demo coach it prints) to upload.
          </p>
        ) : null}
        {commands.upload === null ? (
          <p className="notice" data-testid="guide-create-first">
            You have no track or athlete yet, and the upload must name yours (any other id answers 403): first create a track under{" "}
            <Link href="/tracks">Tracks</Link> and an athlete under <Link href="/athletes">Athletes</Link>, then reload this page. The
            upload command appears here with their ids.
          </p>
        ) : (
          <Command name="upload">{commands.upload}</Command>
        )}
        <p className="muted">
          {props.httpLoopback ? (
            <>
              This server accepts uploads over plain HTTP from this machine only (<code>ALLOW_HTTP_LOOPBACK=1</code>, which the quickstart
              sets); any other client must use HTTPS.
            </>
          ) : (
            <>
              Uploads must be made over HTTPS (a 403 otherwise). On your own machine, start with <code>npm run quickstart</code>, which
              accepts plain HTTP from loopback.
            </>
          )}{" "}
          The answer is <code>201</code> with <code>{"{data: {id, …}}"}</code>: keep the id.
        </p>
        <pre className="response-body">
          <code>export RESULT_ID=…</code>
        </pre>
      </Step>
      <Step title="4. Download its PDF report">
        <Command name="pdf">{commands.pdf}</Command>
      </Step>
      <Step title="5. Register an application">
        <p>
          On <Link href="/developer/applications/new">Register an application</Link>: a name, surface <strong>Data</strong>, confidential,
          redirect URI <code>{GUIDE_REDIRECT_URI}</code>, and the scopes{" "}
          {GUIDE_SCOPES.map((s, i) => (
            <span key={s}>
              {i ? ", " : ""}
              <code>{s}</code>
            </span>
          ))}
          . Copy the client ID and the client secret (shown once). Another loopback redirect URI works too: register it and set{" "}
          <code>REDIRECT_URI</code> to it.
        </p>
      </Step>
      <Step title="6. Sign in with OpenID Connect and call the Data API">
        <p>
          The authorization code flow with <a href="https://github.com/panva/openid-client">openid-client</a>: discovery at{" "}
          <code>{`${appUrl}/api`}</code>, PKCE (required), <code>state</code>, and a <code>nonce</code> (required whenever{" "}
          <code>scope</code> holds <code>openid</code>: a request without one is refused with <code>invalid_request</code>). Then userinfo,{" "}
          <code>GET /me</code>, <code>GET /sessions</code> and a refresh. No <code>resource</code> parameter is needed: with a Data API
          scope the token is for the Data API, and issued with <code>openid</code> it works at userinfo too. Save as{" "}
          <code>oauth-quickstart.mjs</code>:
        </p>
        <Command name="oauthScript">{commands.oauthScript}</Command>
        <p>
          Put the application’s credentials in the environment, run it, open the address it prints, sign in and allow; it prints who you are
          and your sessions’ ids.
        </p>
        <pre className="response-body">
          <code>{"export CLIENT_ID=svcapp_…\nexport CLIENT_SECRET=svcas_…"}</code>
        </pre>
        <Command name="oauthRun">{commands.oauthRun}</Command>
      </Step>
      <Step title="Next">
        <p>Every operation, with “Try it” and samples in curl, JavaScript and Python: the two references linked at the top of this page.</p>
      </Step>
    </ol>
  );
}
