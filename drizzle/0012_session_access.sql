CREATE TABLE "session_access" (
	"user_id" integer NOT NULL,
	"result_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"distance_m" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_access_user_id_result_id_pk" PRIMARY KEY("user_id","result_id")
);
--> statement-breakpoint
ALTER TABLE "session_access" ADD CONSTRAINT "session_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_access" ADD CONSTRAINT "session_access_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_access_start_idx" ON "session_access" USING btree ("user_id","start_at","result_id");--> statement-breakpoint
CREATE INDEX "session_access_distance_idx" ON "session_access" USING btree ("user_id","distance_m","result_id");--> statement-breakpoint
CREATE INDEX "session_access_duration_idx" ON "session_access" USING btree ("user_id","duration_ms","result_id");--> statement-breakpoint
CREATE INDEX "session_access_created_idx" ON "session_access" USING btree ("user_id","created_at","result_id");--> statement-breakpoint
CREATE INDEX "session_access_result_idx" ON "session_access" USING btree ("result_id");