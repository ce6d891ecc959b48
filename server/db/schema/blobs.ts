import { bigint, customType, index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

/**
 * The bytes, once per content (docs/blobs.md): keyed by their SHA-256, so
 * two blobs with the same bytes (an original and its device-fetch copy)
 * share one. `data` holds them in Postgres (the embedded default); null
 * means they are the S3 object `sha256/<sha256>`. A content no blob
 * references is removed by the sweeper once `touched_at` is older than the
 * grace period.
 */
export const blobContents = pgTable("blob_contents", {
  /** Hex SHA-256 of the bytes. */
  sha256: text("sha256").primaryKey(),
  /** Size in bytes. */
  byteSize: bigint("byte_size", { mode: "number" }).notNull(),
  /** The bytes when kept in Postgres (storage EXTERNAL: read in slices); null when in S3. */
  data: bytea("data"),
  /** Last time a writer staged these bytes: the sweeper's grace period counts from here. */
  touchedAt: timestamp("touched_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The blob store's rows: original .svc files, exports, replay artifacts,
 * device-fetch copies. A row names its bytes by SHA-256 (foreign key to
 * `blob_contents`); it is committed after the bytes were written.
 */
export const blobs = pgTable(
  "blobs",
  {
    id: serial("id").primaryKey(),
    /** Stable key, e.g. "results/42/original.svc". */
    key: text("key").notNull().unique(),
    contentType: text("content_type").notNull(),
    /** Size in bytes. */
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    /** Hex SHA-256 of the bytes: the content this row refers to. */
    sha256: text("sha256")
      .notNull()
      .references(() => blobContents.sha256),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The sweeper's "no row references it" and the foreign key's check on delete.
  (t) => [index("blobs_sha256_idx").on(t.sha256)],
);
