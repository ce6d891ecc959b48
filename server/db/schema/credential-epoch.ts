import { sql } from "drizzle-orm";
import { bigint, check, integer, pgTable } from "drizzle-orm/pg-core";

/**
 * One row: a counter that database triggers raise whenever a credential may
 * have lost its validity (an access token deleted, a grant revoked or
 * narrowed, an application suspended, a key pair revoked, an account's role
 * changed or deleted; drizzle/0015). Every API request reads it in the same
 * statement that counts the request against its rate limit, so each instance
 * drops its cache of verified credentials on the first request after such a
 * change (server/http/admission.ts).
 */
export const credentialEpoch = pgTable(
  "credential_epoch",
  {
    /** Always 1: the table holds one row. */
    id: integer("id").primaryKey().default(1),
    /** Raised by one on every change that may invalidate a credential. */
    value: bigint("value", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("credential_epoch_one_row_chk", sql`${t.id} = 1`)],
);
