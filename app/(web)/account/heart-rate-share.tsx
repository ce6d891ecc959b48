"use client";

import { useRouter } from "next/navigation";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

/** The heart-rate sharing switch (docs/access.md "Heart-rate sharing"): off by default, revocable at any time. */
export function HeartRateShareSwitch({ shared }: { shared: boolean }) {
  const router = useRouter();
  const toggle = useSubmit(
    () => trpc.account.setHeartRateShare.mutate({ shared: !shared }),
    () => router.refresh(),
  );
  return (
    <section aria-labelledby="hr-share-heading" className="card stack" data-testid="hr-share">
      <h2 id="hr-share-heading">Heart-rate sharing</h2>
      <p>
        {shared ? (
          <strong data-testid="hr-share-state">On: your coaches can see your heart rate and heart-rate load.</strong>
        ) : (
          <strong data-testid="hr-share-state">Off: only you see your heart rate and heart-rate load.</strong>
        )}
      </p>
      <p className="muted">
        When on, your coaches can see your heart rate and heart-rate load (the coaches of your athlete profile: whoever manages it and the
        coaches of its teams). Exports and connected apps are not affected. You can turn it off at any time.
      </p>
      <FormError message={toggle.errors.form} />
      <label className="row">
        <input
          type="checkbox"
          role="switch"
          checked={shared}
          disabled={toggle.pending}
          onChange={() => toggle.submit()}
          data-testid="hr-share-switch"
        />
        Your coaches can see your heart rate and heart-rate load
      </label>
    </section>
  );
}
