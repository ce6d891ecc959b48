import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/server/auth/current-user";
import { getEnv } from "@/server/config/env";
import { sameOriginReturnPath } from "@/server/auth/return-path";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // Where to go once the account exists, e.g. back to an athlete invitation (docs/auth.md "Return paths").
  const returnTo = sameOriginReturnPath((await searchParams).callbackUrl, getEnv().appUrl);
  if (await getCurrentUser()) redirect(returnTo);
  return (
    <main className="page narrow">
      <h1>Create an account</h1>
      <div className="card">
        <SignUpForm returnTo={returnTo} />
      </div>
      <p>
        Already have an account?{" "}
        <Link href={returnTo === "/" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(returnTo)}`}>Sign in</Link>
      </p>
    </main>
  );
}
