import type { Metadata } from "next";
import { Fragment, type ReactNode } from "react";
import { requireUser } from "@/server/auth/current-user";
import { API_VERSION, CHANGELOG } from "@/server/changelog/changelog";

export const metadata: Metadata = { title: "Changelog" };

/** `code` spans of an entry's text, as docs/changelog.md writes them. */
function withCode(text: string): ReactNode {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) =>
      part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
        <code key={i}>{part.slice(1, -1)}</code>
      ) : (
        <Fragment key={i}>{part}</Fragment>
      ),
    );
}

/** The integrator-facing changelog: the same entries as docs/changelog.md (server/changelog/changelog.ts), newest first. */
export default async function ChangelogPage() {
  await requireUser("/developer/changelog");
  const dates = [...new Set(CHANGELOG.map((e) => e.date))];
  return (
    <>
      <h1>Changelog</h1>
      <p>
        What you can see change in the two APIs, the webhooks, OAuth and the SDK, newest first. Both APIs stay version 1 (OpenAPI{" "}
        <code>info.version</code> {API_VERSION}): every change is additive, so a client written against an earlier day keeps working.
      </p>
      {dates.map((date) => (
        <section key={date} aria-labelledby={`changes-${date}`} className="card">
          <h2 id={`changes-${date}`}>
            <time dateTime={date}>{date}</time>
          </h2>
          <ul className="stack" data-testid="changelog-entries">
            {CHANGELOG.filter((e) => e.date === date).map((e) => (
              <li key={`${e.area} ${e.title}`}>
                <strong>
                  {e.area}: {withCode(e.title)}.
                </strong>{" "}
                {withCode(e.body)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
