/**
 * The part of oidc-provider v9's API this project uses. The package ships no
 * type declarations and @types/oidc-provider is not installed; these are
 * written from the library's source (lib/provider.js, lib/models/*.js).
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface OidcClient {
    clientId: string;
    clientName?: string;
    clientAuthMethod: string;
    redirectUris: string[];
    sectorIdentifier?: string;
    grantTypeAllowed(type: string): boolean;
    [extra: string]: unknown;
  }

  export interface OidcGrant {
    jti: string;
    accountId: string;
    clientId: string;
    exp?: number;
    openid?: { scope?: string; claims?: string[] };
    resources?: Record<string, string>;
    rejected?: { openid?: { scope?: string; claims?: string[] }; resources?: Record<string, string> };
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    save(ttl?: number): Promise<string>;
  }

  export interface InteractionDetails {
    uid: string;
    jti: string;
    exp: number;
    iat: number;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string; uid?: string; cookie?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface OidcSession {
    accountId?: string;
    uid: string;
    grantIdFor(clientId: string): string | undefined;
  }

  /** The Koa context with oidc-provider's `oidc` member (only the parts we read). */
  export interface KoaContextWithOIDC {
    method: string;
    path: string;
    status: number;
    body: unknown;
    headers: Record<string, string | string[] | undefined>;
    type: string;
    set(name: string, value: string): void;
    get(name: string): string;
    cookies: { set(name: string, value: string | null, options?: Record<string, unknown>): void };
    oidc: {
      route?: string;
      client?: OidcClient;
      session?: OidcSession;
      params?: Record<string, unknown>;
      /** The parsed form body of POST endpoints. */
      body?: Record<string, unknown>;
      result?: { login?: unknown; consent?: { grantId?: string } };
      provider: Provider;
      entities: Record<string, unknown>;
    };
  }

  export type AdapterFactory = (model: string) => unknown;

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> | void): this;
    on(event: string, listener: (...args: never[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    Client: {
      prototype: { compareClientSecret(this: OidcClient & { clientSecret?: string }, actual: string): boolean | Promise<boolean> };
      find(id: string): Promise<OidcClient | undefined>;
    };
    Grant: { new (properties: { accountId: string; clientId: string }): OidcGrant; find(id: string): Promise<OidcGrant | undefined> };
    Interaction: { find(uid: string): Promise<InteractionDetails | undefined> };
  }

  export default Provider;

  type OidcErrorClass = new (
    description?: string,
    detail?: string,
  ) => Error & { error: string; error_description?: string; status: number };
  export const errors: {
    AccessDenied: OidcErrorClass;
    InvalidClient: OidcErrorClass;
    InvalidGrant: OidcErrorClass;
    InvalidRequest: OidcErrorClass;
    InvalidScope: OidcErrorClass;
    InvalidTarget: OidcErrorClass;
    SessionNotFound: OidcErrorClass;
    OIDCProviderError: new (status: number, message: string) => Error;
  };

  export class Check {
    constructor(
      reason: string,
      description: string,
      error: string,
      check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
      details?: (ctx: KoaContextWithOIDC) => Record<string, unknown> | undefined,
    );
    constructor(reason: string, description: string, check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>);
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }

  export interface Prompt {
    name: string;
    checks: Check[] & { add(check: Check, index?: number): void };
  }

  export const interactionPolicy: {
    Check: typeof Check;
    base(): Prompt[] & { get(name: string): Prompt | undefined };
  };
}
