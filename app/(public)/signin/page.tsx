import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { sameOriginReturnPath } from "@/server/auth/return-path";
import { landingPath } from "@/server/users/navigation";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only a path of this site's origin (docs/auth.md "Return paths").
  const returnTo = sameOriginReturnPath(params.callbackUrl, getEnv().appUrl);
  const requested = params.callbackUrl !== undefined;
  const user = await getCurrentUser();
  // Without a requested page the role decides where a person lands (an operator: the operator overview).
  if (user) redirect(requested ? returnTo : landingPath(user));
  return (
    <main className="page narrow">
      <p className="product-intro">
        <strong>Paddle Results</strong> turns the <code>.svc</code> files of your boat&apos;s sensor unit into results for canoe and kayak
        sprint: splits, speed and stroke rate, pace per 500 m, interval trainings, records and a crew&apos;s season, for coaches and
        paddlers.
      </p>
      <h1>Sign in</h1>
      <div className="card">
        <SignInForm returnTo={requested ? returnTo : null} />
      </div>
      <p>
        No account yet? <Link href={returnTo === "/" ? "/signup" : `/signup?callbackUrl=${encodeURIComponent(returnTo)}`}>Create one</Link>
      </p>
    </main>
  );
}
