import { bigint, customType, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

/**
 * The embedded blob store: original .svc files, exports, replay artifacts.
 * Behind server/blobs/ so a deployment can move blobs to object storage.
 */
export const blobs = pgTable("blobs", {
  id: serial("id").primaryKey(),
  /** Stable key, e.g. "results/42/original.svc". */
  key: text("key").notNull().unique(),
  contentType: text("content_type").notNull(),
  /** Size in bytes. */
  byteSize: bigint("byte_size", { mode: "number" }).notNull(),
  /** Hex SHA-256 of the bytes, to prove they are unchanged. */
  sha256: text("sha256").notNull(),
  data: bytea("data").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
