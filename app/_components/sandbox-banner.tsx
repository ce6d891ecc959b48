import { eq } from "drizzle-orm";
import { getDb } from "@/server/db/client";
import { oauthApplications } from "@/server/db/schema";
import { sandboxOf } from "@/server/sandbox/sandbox";
import { SandboxReturnButton } from "./sandbox-return-button";

/** Shown on every signed-in page while the owner is signed in as a sandbox person (docs/sandbox.md). */
export async function SandboxBanner({ userId }: { userId: number }) {
  const db = getDb();
  const sandbox = await sandboxOf(db, userId);
  if (!sandbox) return null;
  const [app] = await db
    .select({ name: oauthApplications.name })
    .from(oauthApplications)
    .where(eq(oauthApplications.id, sandbox.applicationId));
  return (
    <div className="notice sandbox-banner" role="status">
      <strong>Sandbox person</strong> of “{app?.name}”: simulated data, not a real paddler. <SandboxReturnButton />
    </div>
  );
}
