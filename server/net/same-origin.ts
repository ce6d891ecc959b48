/**
 * Whether a request was sent by a page of another site (a forged form post):
 * the browser's Fetch Metadata (`Sec-Fetch-Site`) when it sends it, else the
 * `Origin` header. Pages that send no referrer make browsers send
 * `Origin: null` on their own form posts; `Sec-Fetch-Site` still says
 * same-origin there, so "null" alone is not taken as cross-site.
 */
export function isCrossSiteRequest(headers: Headers, siteOrigin: string): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  const origin = headers.get("origin");
  return (
    (fetchSite !== null && fetchSite !== "same-origin") || (origin !== null && origin !== "null" && origin !== new URL(siteOrigin).origin)
  );
}
