ALTER TABLE "results" ADD COLUMN "original_sha256" text;--> statement-breakpoint
CREATE UNIQUE INDEX "results_owner_original_sha256_uq" ON "results" USING btree ("owner_user_id","original_sha256");