import type { Metadata } from "next";
import Link from "next/link";
import { SessionLog } from "@/app/_components/session-log";
import { requireUser } from "@/server/auth/current-user";
import { parseLogQuery } from "@/server/sessions/session-log";

export const metadata: Metadata = { title: "Sessions" };

/** The sessions log: every session the user may see, filtered and sorted from the URL. */
export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const query = parseLogQuery(await searchParams);
  return (
    <>
      <div className="page-header">
        <h1>Sessions</h1>
        {user.canCreateSessions ? (
          <Link className="button" href="/upload">
            Upload a session
          </Link>
        ) : null}
      </div>
      <SessionLog userId={user.id} query={query} basePath="/" />
    </>
  );
}
