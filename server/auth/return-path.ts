/**
 * Where to send a visitor back to after sign-in (callbackUrl on /signin, the
 * next-auth redirect callback, the paths requireUser() asks to return to):
 * resolved against the site's origin, and only a path of that same origin
 * comes out, never a host. Pure, so the sign-in form runs it in the browser
 * too (issue 14, defect 10; docs/auth.md "Return paths").
 *
 * Browsers read "\" as "/" and drop tabs and newlines inside URLs (WHATWG
 * URL), so "/\evil.example" and "/\t/evil.example" are another host to them
 * although they look like paths; such values are refused outright rather
 * than repaired. Anything refused becomes "/".
 */
export function sameOriginReturnPath(value: unknown, siteOrigin: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "/";
  // Control characters (tab, CR, LF, NUL…), DEL and backslashes: never part of a path we send.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return "/";
  const origin = new URL(siteOrigin).origin;
  // A relative path must start with one "/"; "//host" is another host, "evil", "https:evil" and "javascript:" are not paths.
  const relative = value.startsWith("/") && !value.startsWith("//");
  if (!relative && !/^https?:\/\//i.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin || url.username || url.password) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can collapse into "//host" ("/.//evil.example"): a path that starts so is a host again.
  return path.startsWith("/") && !path.startsWith("//") ? path : "/";
}
