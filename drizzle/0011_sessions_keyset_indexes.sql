DROP INDEX "results_owner_start_idx";--> statement-breakpoint
DROP INDEX "results_owner_created_idx";--> statement-breakpoint
CREATE INDEX "results_owner_start_idx" ON "results" USING btree ("owner_user_id","start_at","id");--> statement-breakpoint
CREATE INDEX "results_owner_created_idx" ON "results" USING btree ("owner_user_id","created_at","id");