import { createHash, generateKeyPairSync, type JsonWebKey } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { appSecrets } from "../../db/schema";

/** app_secrets row holding the private JSON Web Key Set. */
const JWKS_SECRET_NAME = "oauth:jwks";

export interface PrivateJwks {
  keys: (JsonWebKey & { kid: string; alg: string; use: "sig" })[];
}

/** An RSA key for RS256 (what OpenID Connect requires every OP to support) and a P-256 key for ES256. */
export function generateSigningKeys(): PrivateJwks {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  return {
    keys: [
      { ...rsa, kid: thumbprintKid(rsa), alg: "RS256", use: "sig" },
      { ...ec, kid: thumbprintKid(ec), alg: "ES256", use: "sig" },
    ],
  };
}

/** RFC 7638 thumbprint of the public members: a stable, content-derived key id. */
function thumbprintKid(jwk: JsonWebKey): string {
  const members = jwk.kty === "RSA" ? { e: jwk.e, kty: jwk.kty, n: jwk.n } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  return createHash("sha256").update(JSON.stringify(members)).digest("base64url");
}

/**
 * The ID token signing keys: generated on first start and kept in the
 * database, so every instance signs with the same keys and none is in the
 * repository. Two instances starting at once both generate; the first insert
 * wins and both read it back.
 */
export async function getOrCreateSigningKeys(db: Db): Promise<PrivateJwks> {
  const [existing] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, JWKS_SECRET_NAME));
  if (existing) return JSON.parse(existing.value) as PrivateJwks;
  await db
    .insert(appSecrets)
    .values({ name: JWKS_SECRET_NAME, value: JSON.stringify(generateSigningKeys()) })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, JWKS_SECRET_NAME));
  return JSON.parse(row.value) as PrivateJwks;
}
