/**
 * Both APIs live under `/api/v1` of the site. A client takes the site's
 * address (`https://results.example`) and adds the prefix; an address that
 * already ends in `/api/v1` is taken as it is.
 */
export function apiBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/api/v1") ? trimmed : `${trimmed}/api/v1`;
}

export type Fetch = (input: Request) => Promise<Response>;
