CREATE TABLE "reprocess_run_failures" (
	"run_id" integer NOT NULL,
	"item_kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"error" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reprocess_run_failures_run_id_item_kind_item_id_pk" PRIMARY KEY("run_id","item_kind","item_id")
);
--> statement-breakpoint
CREATE TABLE "reprocess_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"target_core_version" integer NOT NULL,
	"requested_by_user_id" integer,
	"requested_via" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"max_result_id" integer,
	"last_result_id" integer DEFAULT 0 NOT NULL,
	"max_training_id" integer,
	"last_training_id" integer DEFAULT 0 NOT NULL,
	"batch_size" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "result_derived" ADD COLUMN "processing_core_version" integer;--> statement-breakpoint
ALTER TABLE "reprocess_run_failures" ADD CONSTRAINT "reprocess_run_failures_run_id_reprocess_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reprocess_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reprocess_runs" ADD CONSTRAINT "reprocess_runs_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reprocess_runs_one_active_uq" ON "reprocess_runs" USING btree ((true)) WHERE "reprocess_runs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "reprocess_runs_created_idx" ON "reprocess_runs" USING btree ("created_at");