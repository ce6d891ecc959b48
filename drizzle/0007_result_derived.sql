CREATE TABLE "result_derived" (
	"result_id" integer PRIMARY KEY NOT NULL,
	"effort_start_s" real NOT NULL,
	"effort_end_s" real NOT NULL,
	"summary" jsonb NOT NULL,
	"data_quality" jsonb NOT NULL,
	"track" jsonb NOT NULL,
	"heart_rate" jsonb NOT NULL,
	"processing_version" text NOT NULL,
	"replay_blob_key" text
);
--> statement-breakpoint
ALTER TABLE "results" ADD COLUMN "original_filename" text;--> statement-breakpoint
ALTER TABLE "result_derived" ADD CONSTRAINT "result_derived_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;