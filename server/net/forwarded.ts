/**
 * Reading what our proxy told us. The deployment has exactly ONE trusted
 * proxy in front of the app (TRUST_PROXY=1; docs/auth.md "Behind a proxy"):
 * it appends one value to each X-Forwarded-* list it forwards, so the
 * right-most value is its own and everything to its left is whatever the
 * client sent (`X-Forwarded-Proto: https, http` arrived over http).
 */
export function proxyAppendedValue(headers: Headers, name: "x-forwarded-proto" | "x-forwarded-for"): string | undefined {
  const entries =
    headers
      .get(name)
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  return entries.at(-1);
}
