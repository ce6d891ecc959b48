CREATE TABLE "credential_epoch" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credential_epoch_one_row_chk" CHECK ("credential_epoch"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "session_access" ADD COLUMN "subject" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "session_access_subject_start_idx" ON "session_access" USING btree ("user_id","start_at","result_id") WHERE subject;--> statement-breakpoint
CREATE INDEX "session_access_subject_distance_idx" ON "session_access" USING btree ("user_id","distance_m","result_id") WHERE subject;--> statement-breakpoint
CREATE INDEX "session_access_subject_duration_idx" ON "session_access" USING btree ("user_id","duration_ms","result_id") WHERE subject;--> statement-breakpoint
CREATE INDEX "session_access_subject_created_idx" ON "session_access" USING btree ("user_id","created_at","result_id") WHERE subject;