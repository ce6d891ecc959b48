import { expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { newAccount, type TestAccount } from "./helpers";

/** A request context signed in (next-auth cookie) as `account`, for tRPC calls the portal would make. */
export async function signedInContext(baseURL: string, account: Pick<TestAccount, "email" | "password">): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL });
  const { csrfToken } = await (await context.get("/api/auth/csrf")).json();
  const response = await context.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(response.status());
  return context;
}

export async function trpcMutation<T>(context: APIRequestContext, procedure: string, input?: unknown): Promise<T> {
  const response = await context.post(`/api/trpc/${procedure}`, { data: input ?? null });
  const body = await response.json();
  expect(response.status(), JSON.stringify(body)).toBe(200);
  return body.result.data as T;
}

export async function signUpOverHttp(baseURL: string, label = "api"): Promise<TestAccount> {
  const account = newAccount(label);
  const context = await playwrightRequest.newContext({ baseURL });
  await trpcMutation(context, "account.signUp", account);
  await context.dispose();
  return account;
}

export interface ApiKey {
  publicKey: string;
  secretKey: string;
  /** "Bearer PUBLIC.SECRET" */
  authorization: string;
}

/** A key pair for `account`, created through the portal's own endpoint. */
export async function createKeyPair(baseURL: string, account: Pick<TestAccount, "email" | "password">, name = "e2e key"): Promise<ApiKey & { context: APIRequestContext; id: number }> {
  const context = await signedInContext(baseURL, account);
  const created = await trpcMutation<{ id: number; publicKey: string; secretKey: string }>(context, "keys.create", { name });
  return { ...created, authorization: `Bearer ${created.publicKey}.${created.secretKey}`, context };
}
