import { notFound } from "next/navigation";
import { AppError } from "@/server/errors";
import { INT4_MAX } from "@/server/contract/values";

/** A positive integer path id, or null (the page then answers 404). */
export function parseId(value: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= INT4_MAX ? id : null;
}

/** Loads a resource; absent and not-accessible both render the 404 page. */
export async function loadOr404<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}
