import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { ApplicationForm } from "../application-forms";

export const metadata: Metadata = { title: "Register an application" };

export default async function NewApplicationPage() {
  await requireUser("/developer/applications/new");
  return (
    <>
      <p>
        <Link href="/developer/applications">← Applications</Link>
      </p>
      <h1>Register an application</h1>
      <ApplicationForm />
    </>
  );
}
