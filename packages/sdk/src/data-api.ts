import createClient, { type Client } from "openapi-fetch";
import { apiBaseUrl, type Fetch } from "./base-url.js";
import type { paths } from "./generated/data-api.js";

/** The Data API's typed client: `GET`, `POST`, `DELETE` on its paths (openapi-fetch). */
export type DataApiClient = Client<paths>;

export interface DataApiOptions {
  /** The site's address, e.g. `https://results.example` (`/api/v1` is added). */
  baseUrl: string;
  /** An OAuth access token whose audience is this API (request it with `resource=<site>/api/v1`). */
  accessToken: string;
  /**
   * Called when the API answers 401 (the token expired or was revoked): return
   * a fresh access token (typically from your refresh token; refresh tokens
   * rotate, so store the new one it gives you). The request is sent once more
   * with it, and it is used from then on. Concurrent 401s share one call.
   * Throw to give up: the caller then sees the original 401.
   */
  refreshAccessToken?: () => Promise<string>;
  /** Headers sent on every request (e.g. `User-Agent`). */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, proxies); defaults to the global fetch. */
  fetch?: Fetch;
}

/**
 * A client for the OAuth Data API. Every request carries `Authorization:
 * Bearer <access token>`; with `refreshAccessToken`, a 401 refreshes the token
 * and repeats the request once. Calls resolve to `{data, error, response}`;
 * `unwrap()` turns them into the body or a thrown `PaddleApiError`.
 */
export function createDataApiClient(options: DataApiOptions): DataApiClient {
  const send: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  let token = options.accessToken;
  let refreshing: Promise<string> | null = null;

  const refresh = (used: string): Promise<string> => {
    // A token another request already refreshed is not refreshed again.
    if (token !== used) return Promise.resolve(token);
    refreshing ??= options.refreshAccessToken!().then(
      (fresh) => {
        token = fresh;
        refreshing = null;
        return fresh;
      },
      (error: unknown) => {
        refreshing = null;
        throw error;
      },
    );
    return refreshing;
  };

  const authorizedFetch: Fetch = async (request) => {
    // Kept for a second attempt: a request's body can be read only once.
    const retry = options.refreshAccessToken ? request.clone() : null;
    const used = token;
    request.headers.set("Authorization", `Bearer ${used}`);
    const response = await send(request);
    if (response.status !== 401 || !retry) return response;
    let fresh: string;
    try {
      fresh = await refresh(used);
    } catch {
      return response;
    }
    await response.body?.cancel();
    retry.headers.set("Authorization", `Bearer ${fresh}`);
    return send(retry);
  };

  return createClient<paths>({ baseUrl: apiBaseUrl(options.baseUrl), headers: options.headers, fetch: authorizedFetch });
}
