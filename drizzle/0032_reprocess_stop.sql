ALTER TABLE "operator_actions" ALTER COLUMN "target_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reprocess_runs" ADD COLUMN "last_progress_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Runs already over: their last progress was their end. Active ones keep now(): they count as stalled only after a full threshold from this migration.
UPDATE "reprocess_runs" SET "last_progress_at" = coalesce("finished_at", "started_at", "created_at") WHERE "state" NOT IN ('queued', 'running');
