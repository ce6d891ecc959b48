import { createHash, randomBytes } from "node:crypto";

/**
 * Launch tokens, artifact tokens and lease credentials: 256 random bits,
 * base64url (43 characters), shown once; only their SHA-256 is stored and
 * they are looked up by that hash, so the lookup time does not depend on how
 * close a guess is.
 */
export const newEmbedToken = () => randomBytes(32).toString("base64url");
export const hashEmbedToken = (token: string) => createHash("sha256").update(token).digest("hex");
/** Anything else is refused before touching the database. */
export const isEmbedTokenShape = (token: unknown): token is string => typeof token === "string" && /^[A-Za-z0-9_-]{43}$/.test(token);
