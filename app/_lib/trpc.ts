"use client";

import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/trpc/root";

export const trpc = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] });

export interface FormErrors {
  form: string | null;
  fields: Record<string, string[]>;
}

/** Turns a failed call into a form-level message and per-field messages. */
export function formErrorsOf(error: unknown): FormErrors {
  if (error instanceof TRPCClientError) {
    const data = error.data as { fieldErrors?: Record<string, string[]> | null } | undefined;
    const fields = data?.fieldErrors ?? {};
    return { form: Object.keys(fields).length ? "Please correct the highlighted fields." : error.message, fields };
  }
  return { form: "Could not reach the server. Check your connection and try again.", fields: {} };
}
