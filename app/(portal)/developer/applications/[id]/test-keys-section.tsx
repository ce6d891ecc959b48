import { getDb } from "@/server/db/client";
import { listTestKeyPairs } from "@/server/sandbox/sandbox";
import { TestKeys } from "./test-keys";

/** The application's test keys (docs/sandbox.md "Test keys"), loaded for the owner; shown under the sandbox panel. */
export async function TestKeysSection({
  ownerUserId,
  applicationId,
  sandboxName,
}: {
  ownerUserId: number;
  applicationId: number;
  sandboxName: string;
}) {
  const keys = await listTestKeyPairs(getDb(), ownerUserId, applicationId);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return (
    <TestKeys
      applicationId={applicationId}
      sandboxName={sandboxName}
      keys={keys.map((k) => ({
        id: k.id,
        name: k.name,
        publicKey: k.publicKey,
        secretStart: k.secretStart,
        createdAt: k.createdAt.toISOString(),
        lastUsedAt: iso(k.lastUsedAt),
        revokedAt: iso(k.revokedAt),
      }))}
    />
  );
}
