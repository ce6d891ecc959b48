import { PUBLIC_KEY_PREFIX } from "../keys/key-pairs";

type RouteHandler<C> = (request: Request, context: C) => Promise<Response>;

/**
 * Paths both APIs own (GET /tracks, /tracks/{id}): the credential decides
 * which API answers (docs/data-api.md "One base path, two APIs"). A key pair
 * carries the recognisable svcpk_ prefix; any other bearer token is an OAuth
 * access token. No credential at all gets the results API's 401, as before
 * the Data API existed.
 */
export function byCredential<C>(handlers: { keyPair: RouteHandler<C>; accessToken: RouteHandler<C> }): RouteHandler<C> {
  return (request, context) => {
    const match = /^Bearer\s+(\S+)/i.exec(request.headers.get("authorization") ?? "");
    const credential = match?.[1];
    if (credential && !credential.startsWith(PUBLIC_KEY_PREFIX)) return handlers.accessToken(request, context);
    return handlers.keyPair(request, context);
  };
}
