import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ReplayPlayer } from "@/app/_components/replay-player/replay-player";
import { getEnv } from "@/server/config/env";
import { getDb } from "@/server/db/client";
import { launchEmbed } from "@/server/embeds/launch-embed";
import { launchRequestOf } from "@/server/embeds/launch-request";

/**
 * GET /api/v1/svcsim/launch/{token} (data-api.md "Replay embeds"): the first
 * opening consumes the launch and renders the player with one single-use
 * artifact URL per lane and the lease credential; any other opening is the
 * 404 page. `frame-ancestors` is set by proxy.ts before this renders.
 * A page (not a route handler) so the player's client bundle comes with it.
 */
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Replay", robots: { index: false, follow: false }, referrer: "no-referrer" };

const API = "/api/v1/svcsim";

export default async function LaunchPage({ params }: { params: Promise<{ token: string }> }) {
  const launched = await launchEmbed(getDb(), {
    token: (await params).token,
    request: launchRequestOf(await headers()),
    appOrigin: new URL(getEnv().appUrl).origin,
  });
  if (!launched) notFound();
  const lanes = launched.lanes.map((l) => ({
    lane: l.lane,
    label: `Lane ${l.lane} · ${l.modelClass}`,
    modelClass: l.modelClass,
    url: `${API}/artifacts/${l.artifactToken}`,
  }));
  return (
    <div style={{ position: "fixed", inset: 0 }}>
      <ReplayPlayer fill lanes={lanes} lease={{ credential: launched.lease.credential, renewUrl: `${API}/leases` }} />
    </div>
  );
}
