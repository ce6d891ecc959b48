import { expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { newAccount, signInOverHttp, type TestAccount } from "./helpers";
import { datedSvc, simulatedSvc } from "./svc-files";

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

/**
 * Signs a page in through the credentials callback over HTTP and hands it the session cookie:
 * for tests of what a signed-in page shows, where the sign-in form itself is not the subject
 * (e2e/sign-in.spec.ts tests that).
 */
export async function signInPageOverHttp(page: Page, _baseURL: string, account: Pick<TestAccount, "email" | "password">): Promise<void> {
  await signInOverHttp(page, account);
}

/** A new account (signed up over HTTP) and the page signed in as it. */
export async function signedInNewAccount(page: Page, baseURL: string, label: string): Promise<TestAccount> {
  const account = await signUpOverHttp(baseURL, label);
  await signInPageOverHttp(page, baseURL, account);
  return account;
}

export interface ApiKey {
  publicKey: string;
  secretKey: string;
  /** "Bearer PUBLIC.SECRET" */
  authorization: string;
}

/**
 * A simulated K1 effort uploaded through the results API (201 expected), for
 * specs whose setup needs sessions on given days: started at `at` (epoch ms)
 * when given, else as the simulator dates it. Returns the result's id.
 */
export async function uploadK1Session(
  key: ApiKey & { context: APIRequestContext },
  upload: { trackId: number; athleteId: number; distanceM: number; seed: number; at?: number },
): Promise<number> {
  const options = { vessel: "K1", distanceM: upload.distanceM, seed: upload.seed } as const;
  const response = await key.context.post("/api/v1/results", {
    multipart: {
      file: {
        name: `k1-${upload.seed}.svc`,
        mimeType: "application/octet-stream",
        buffer: upload.at === undefined ? simulatedSvc(options) : datedSvc(options, upload.at),
      },
      metadata: JSON.stringify({
        distance: upload.distanceM,
        vessel_id: 1,
        track_id: upload.trackId,
        category_id: 1,
        pace_id: 1,
        athletes: [upload.athleteId],
      }),
    },
    headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** A key pair for `account`, created through the portal's own endpoint. */
export async function createKeyPair(
  baseURL: string,
  account: Pick<TestAccount, "email" | "password">,
  name = "e2e key",
): Promise<ApiKey & { context: APIRequestContext; id: number }> {
  const context = await signedInContext(baseURL, account);
  const created = await trpcMutation<{ id: number; publicKey: string; secretKey: string }>(context, "keys.create", { name });
  return { ...created, authorization: `Bearer ${created.publicKey}.${created.secretKey}`, context };
}
