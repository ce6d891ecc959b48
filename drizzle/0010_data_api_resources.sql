DROP INDEX "health_lactate_result_idx";--> statement-breakpoint
CREATE INDEX "results_device_idx" ON "results" USING btree ("device_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "health_lactate_result_idx" ON "health_lactate" USING btree ("result_id","measured_at","id");