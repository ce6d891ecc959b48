import { createHash } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { errors } from "oidc-provider";
import type { Db } from "../../db/client";
import { oauthModels } from "../../db/schema";
import { findClientMetadata } from "./clients";
import { revokeGrant } from "./grants";

/**
 * oidc-provider's storage over one table, oauth_models (docs/oauth.md
 * "Adapter"). Clients are read from oauth_applications instead.
 *
 * The one thing the library cannot do for us is make "use once" atomic: it
 * reads a code or refresh token, sees it unused, then calls consume(). Two
 * parallel requests would both pass that check, so consume() here is a
 * conditional UPDATE: exactly one caller wins, and the loser is treated as
 * a replay (the whole grant is revoked and invalid_grant is returned).
 */
export interface OidcAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/**
 * Models whose id is a bearer secret (the token or code a client presents).
 * Their rows are keyed by the SHA-256 of the id and their payload is stored
 * without `jti` (which repeats it), so a read of the table yields nothing a
 * client could present. Sessions and interactions keep their ids: they are
 * found by uid too, and their ids only work together with the browser's cookies.
 */
const SECRET_ID_MODELS = new Set([
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "ClientCredentials",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "PushedAuthorizationRequest",
  "RegistrationAccessToken",
  "InitialAccessToken",
]);

/** The oauth_models.id under which a model instance with this id is stored. */
export function storedModelId(model: string, id: string): string {
  return SECRET_ID_MODELS.has(model) ? createHash("sha256").update(id).digest("hex") : id;
}

/** Expired rows are deleted by whichever request comes along at most this often (per process). */
const CLEANUP_INTERVAL_MS = 60_000;
let lastCleanupAt = 0;

export function createAdapterFactory(db: Db): (model: string) => OidcAdapter {
  return (model) => (model === "Client" ? new ClientAdapter(db) : new ModelAdapter(db, model));
}

const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

class ModelAdapter implements OidcAdapter {
  constructor(
    private readonly db: Db,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
    const expiresAt = typeof expiresIn === "number" ? new Date(Date.now() + expiresIn * 1000) : null;
    // A Grant is its own family: indexing it under its own id lets one
    // statement delete a grant together with every token issued from it.
    const grantId = this.model === "Grant" ? id : str(payload.grantId);
    if (this.secretIds) {
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { jti, ...withoutId } = payload;
      payload = withoutId;
    }
    const values = {
      model: this.model,
      id: this.key(id),
      payload,
      grantId,
      uid: str(payload.uid),
      userCode: str(payload.userCode),
      expiresAt,
    };
    await this.db
      .insert(oauthModels)
      .values(values)
      .onConflictDoUpdate({
        target: [oauthModels.model, oauthModels.id],
        // consumed_at is left alone: re-saving a used token never makes it usable again.
        set: { payload, grantId: values.grantId, uid: values.uid, userCode: values.userCode, expiresAt },
      });
    await cleanupIfDue(this.db);
  }

  private get secretIds(): boolean {
    return SECRET_ID_MODELS.has(this.model);
  }

  private key(id: string): string {
    return storedModelId(this.model, id);
  }

  async find(id: string) {
    const payload = await this.findWhere(eq(oauthModels.id, this.key(id)));
    // The stored payload lacks the id it is keyed by (see SECRET_ID_MODELS); the caller holds it.
    return payload && this.secretIds ? { ...payload, jti: id } : payload;
  }

  findByUid(uid: string) {
    return this.findWhere(eq(oauthModels.uid, uid));
  }

  findByUserCode(userCode: string) {
    return this.findWhere(eq(oauthModels.userCode, userCode));
  }

  private async findWhere(condition: ReturnType<typeof eq>) {
    const [row] = await this.db
      .select({ payload: oauthModels.payload, consumedAt: oauthModels.consumedAt, expiresAt: oauthModels.expiresAt })
      .from(oauthModels)
      .where(and(eq(oauthModels.model, this.model), condition))
      .limit(1);
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
    // oidc-provider reads `consumed` (epoch seconds) to detect a second use.
    return row.consumedAt ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : row.payload;
  }

  async consume(id: string): Promise<void> {
    const won = await this.db
      .update(oauthModels)
      .set({ consumedAt: new Date() })
      .where(and(eq(oauthModels.model, this.model), eq(oauthModels.id, this.key(id)), isNull(oauthModels.consumedAt)))
      .returning({ id: oauthModels.id });
    if (won.length === 1) return;
    // Someone used it between the library's check and now: a replay. Revoke the family.
    const [row] = await this.db
      .select({ grantId: oauthModels.grantId })
      .from(oauthModels)
      .where(and(eq(oauthModels.model, this.model), eq(oauthModels.id, this.key(id))));
    if (row?.grantId) await revokeGrant(this.db, row.grantId);
    throw new errors.InvalidGrant(`${this.model === "RefreshToken" ? "refresh token" : "grant"} already used`);
  }

  async destroy(id: string): Promise<void> {
    if (this.model === "Grant") {
      // oidc-provider destroys a Grant when it revokes it (revocation, replay, logout):
      // keep our queryable grant record in step.
      await revokeGrant(this.db, id);
      return;
    }
    await this.db.delete(oauthModels).where(and(eq(oauthModels.model, this.model), eq(oauthModels.id, this.key(id))));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(oauthModels).where(and(eq(oauthModels.model, this.model), eq(oauthModels.grantId, grantId)));
  }
}

/** Clients come from oauth_applications; oidc-provider never writes them. */
class ClientAdapter implements OidcAdapter {
  constructor(private readonly db: Db) {}
  find(id: string) {
    return findClientMetadata(this.db, id);
  }
  async upsert(): Promise<void> {
    throw new Error("clients are managed in the developer portal");
  }
  async findByUid() {
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(): Promise<void> {
    throw new Error("clients cannot be consumed");
  }
  async destroy(): Promise<void> {
    throw new Error("clients are managed in the developer portal");
  }
  async revokeByGrantId(): Promise<void> {}
}

/**
 * Deletes rows past their expiry. Consumed refresh tokens stay until they
 * expire, so a late replay is still recognised as one.
 */
export async function deleteExpiredOAuthModels(db: Db, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(oauthModels)
    .where(lt(oauthModels.expiresAt, sql`${now.toISOString()}::timestamptz`))
    .returning({ id: oauthModels.id });
  return deleted.length;
}

async function cleanupIfDue(db: Db): Promise<void> {
  const now = Date.now();
  if (now - lastCleanupAt < CLEANUP_INTERVAL_MS) return;
  lastCleanupAt = now;
  try {
    await deleteExpiredOAuthModels(db);
  } catch (error) {
    console.error("oauth: expired row cleanup failed", error);
  }
}
