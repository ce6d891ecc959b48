import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/server/db/client";
import { signInView } from "@/server/auth/oauth/interactions";
import { DISABLED_MESSAGE, INVALID_CREDENTIALS_MESSAGE } from "@/server/auth/next-auth";

export const metadata: Metadata = { title: "Sign in", referrer: "no-referrer" };

type Props = { params: Promise<{ uid: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Server-rendered sign-in for an authorization request; the form posts to the interaction route. */
export default async function OAuthSignInPage({ params, searchParams }: Props) {
  const { uid } = await params;
  const query = await searchParams;
  const view = await signInView(getDb(), new Headers(await headers()), uid);
  if (!view) redirect("/oauth/expired");
  const minutes = Number(query.minutes ?? 15);
  const error =
    query.error === "invalid"
      ? INVALID_CREDENTIALS_MESSAGE
      : query.error === "disabled"
        ? DISABLED_MESSAGE
        : query.error === "throttled"
          ? `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`
          : null;
  return (
    <>
      <h1>Sign in</h1>
      <div className="card">
        <p>
          <strong>{view.applicationName}</strong> wants to use your Paddle Results account.
          {view.forced ? " It asks you to enter your password again." : ""}
        </p>
        <form className="stack" method="post" action={`/oauth/interaction/${encodeURIComponent(uid)}`}>
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="email">Email</label>
            <input id="email" name="email" type="email" autoComplete="username" required />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
          <div className="row">
            <button type="submit" name="action" value="signin">
              Sign in
            </button>
            <button type="submit" name="action" value="abort" className="secondary" formNoValidate>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </>
  );
}
