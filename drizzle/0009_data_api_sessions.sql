ALTER TABLE "results" ADD COLUMN "created_by_application_id" integer;--> statement-breakpoint
ALTER TABLE "results" ADD COLUMN "equipment_vessel_id" integer;--> statement-breakpoint
ALTER TABLE "results" ADD COLUMN "equipment_paddle_id" integer;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_created_by_application_id_oauth_applications_id_fk" FOREIGN KEY ("created_by_application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_equipment_vessel_id_equipment_vessels_id_fk" FOREIGN KEY ("equipment_vessel_id") REFERENCES "public"."equipment_vessels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_equipment_paddle_id_equipment_paddles_id_fk" FOREIGN KEY ("equipment_paddle_id") REFERENCES "public"."equipment_paddles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_pairs" ADD CONSTRAINT "key_pairs_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "results_owner_duration_idx" ON "results" USING btree ("owner_user_id","duration_ms","id");--> statement-breakpoint
CREATE INDEX "results_created_by_application_idx" ON "results" USING btree ("created_by_application_id","id");