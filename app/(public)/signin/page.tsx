import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/server/auth/current-user";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-site paths are allowed as a return address. */
function safeReturnPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  return path && path.startsWith("/") && !path.startsWith("//") ? path : "/";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await getCurrentUser()) redirect(returnTo);
  return (
    <main className="page narrow">
      <h1>Sign in</h1>
      <div className="card">
        <SignInForm returnTo={returnTo} />
      </div>
      <p>
        No account yet? <Link href="/signup">Create one</Link>
      </p>
    </main>
  );
}
