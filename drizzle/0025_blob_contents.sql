CREATE TABLE "blob_contents" (
	"sha256" text PRIMARY KEY NOT NULL,
	"byte_size" bigint NOT NULL,
	"data" "bytea",
	"touched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Uncompressed out-of-line storage: downloads read the bytes in slices (substring), which then fetch only the slice's TOAST chunks.
ALTER TABLE "blob_contents" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
-- The bytes already stored move to their content rows (one per distinct SHA-256) before the column goes.
INSERT INTO "blob_contents" ("sha256", "byte_size", "data") SELECT DISTINCT ON ("sha256") "sha256", "byte_size", "data" FROM "blobs" ORDER BY "sha256", "id";--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_sha256_blob_contents_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blob_contents"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blobs_sha256_idx" ON "blobs" USING btree ("sha256");--> statement-breakpoint
ALTER TABLE "blobs" DROP COLUMN "data";
