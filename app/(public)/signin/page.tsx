import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { sameOriginReturnPath } from "@/server/http/return-path";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only a path of this site's origin (docs/auth.md "Return paths").
  const returnTo = sameOriginReturnPath(params.callbackUrl, getEnv().appUrl);
  if (await getCurrentUser()) redirect(returnTo);
  return (
    <main className="page narrow">
      <h1>Sign in</h1>
      <div className="card">
        <SignInForm returnTo={returnTo} />
      </div>
      <p>
        No account yet? <Link href={returnTo === "/" ? "/signup" : `/signup?callbackUrl=${encodeURIComponent(returnTo)}`}>Create one</Link>
      </p>
    </main>
  );
}
