ALTER TABLE "webhook_deliveries" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "dispatch_queued_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id") WHERE status = 'pending';