CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_name" text NOT NULL,
	"event" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"lease_expiries" integer DEFAULT 0 NOT NULL,
	"output" jsonb,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_runs_status_chk" CHECK ("job_runs"."status" in ('queued', 'running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "job_steps" (
	"run_id" uuid NOT NULL,
	"hashed_id" text NOT NULL,
	"step_id" text NOT NULL,
	"kind" text NOT NULL,
	"position" integer NOT NULL,
	"outcome" text NOT NULL,
	"output" jsonb,
	"error" jsonb,
	"attempts" integer NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_steps_run_id_hashed_id_pk" PRIMARY KEY("run_id","hashed_id"),
	CONSTRAINT "job_steps_outcome_chk" CHECK ("job_steps"."outcome" in ('completed', 'failed')),
	CONSTRAINT "job_steps_kind_chk" CHECK ("job_steps"."kind" in ('run', 'sleep'))
);
--> statement-breakpoint
ALTER TABLE "job_steps" ADD CONSTRAINT "job_steps_run_id_job_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."job_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_event_function_uq" ON "job_runs" USING btree ("event_id","function_id");--> statement-breakpoint
CREATE INDEX "job_runs_queued_idx" ON "job_runs" USING btree ("run_after") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "job_runs_leased_idx" ON "job_runs" USING btree ("lease_expires_at") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "job_runs_finished_idx" ON "job_runs" USING btree ("finished_at") WHERE status in ('completed', 'failed');