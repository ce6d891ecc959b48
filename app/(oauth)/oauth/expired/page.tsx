import type { Metadata } from "next";

export const metadata: Metadata = { title: "Request expired", referrer: "no-referrer" };

export default function ExpiredPage() {
  return (
    <>
      <h1>This request has expired</h1>
      <div className="card">
        <p>
          The sign-in or consent request is no longer valid: it took longer than ten minutes, was already completed, or was opened in
          another browser.
        </p>
        <p>Return to the application and start again.</p>
      </div>
    </>
  );
}
