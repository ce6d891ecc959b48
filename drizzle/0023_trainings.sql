CREATE TABLE "training_derived" (
	"training_id" integer PRIMARY KEY NOT NULL,
	"effort_start_s" real NOT NULL,
	"effort_end_s" real NOT NULL,
	"summary" jsonb NOT NULL,
	"data_quality" jsonb NOT NULL,
	"track" jsonb NOT NULL,
	"template_match" jsonb
);
--> statement-breakpoint
CREATE TABLE "training_set_strokes" (
	"set_id" integer NOT NULL,
	"stroke_index" integer NOT NULL,
	"catch_s" real NOT NULL,
	"side" text,
	"distance_m" real,
	"filtered_speed_m_s" real,
	"rate_spm" real,
	"stroke_distance_m" real,
	"left_stroke_distance_m" real,
	"right_stroke_distance_m" real,
	"max_accel_x_m_s2" real,
	"min_accel_x_m_s2" real,
	"max_pitch_deg" real,
	"max_roll_deg" real,
	CONSTRAINT "training_set_strokes_set_id_stroke_index_pk" PRIMARY KEY("set_id","stroke_index")
);
--> statement-breakpoint
CREATE TABLE "training_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"start_s" real NOT NULL,
	"end_s" real NOT NULL,
	"distance_m" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"stroke_count" integer NOT NULL,
	"step_index" smallint,
	"complete" boolean DEFAULT true NOT NULL,
	"summary" jsonb,
	"track" jsonb,
	"heart_rate" jsonb
);
--> statement-breakpoint
CREATE TABLE "trainings" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"athlete_id" integer,
	"device_id" integer,
	"vessel_id" integer NOT NULL,
	"track_id" integer,
	"title" varchar(128) DEFAULT '' NOT NULL,
	"notes" varchar(1000) DEFAULT '' NOT NULL,
	"template_id" integer,
	"template_snapshot" jsonb,
	"sensitivity" real DEFAULT 5 NOT NULL,
	"created_via" text NOT NULL,
	"key_pair_id" integer,
	"created_by_application_id" integer,
	"original_filename" text,
	"original_sha256" text,
	"original_blob_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"processing_core_version" integer,
	"date" date,
	"time_of_day" text,
	"start_at" timestamp with time zone,
	"utc_offset_min" smallint,
	"distance_m" integer,
	"duration_ms" integer,
	"work_set_count" smallint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workout_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"template" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "training_derived" ADD CONSTRAINT "training_derived_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_set_strokes" ADD CONSTRAINT "training_set_strokes_set_id_training_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."training_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_sets" ADD CONSTRAINT "training_sets_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_vessel_id_vessels_id_fk" FOREIGN KEY ("vessel_id") REFERENCES "public"."vessels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_template_id_workout_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."workout_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_created_by_application_id_oauth_applications_id_fk" FOREIGN KEY ("created_by_application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_original_blob_id_blobs_id_fk" FOREIGN KEY ("original_blob_id") REFERENCES "public"."blobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workout_templates" ADD CONSTRAINT "workout_templates_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "training_sets_position_uq" ON "training_sets" USING btree ("training_id","position");--> statement-breakpoint
CREATE INDEX "trainings_owner_start_idx" ON "trainings" USING btree ("owner_user_id",coalesce("start_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "trainings_created_by_application_idx" ON "trainings" USING btree ("created_by_application_id","id");--> statement-breakpoint
CREATE INDEX "trainings_status_idx" ON "trainings" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "trainings_owner_original_sha256_uq" ON "trainings" USING btree ("owner_user_id","original_sha256");--> statement-breakpoint
CREATE INDEX "workout_templates_owner_idx" ON "workout_templates" USING btree ("owner_user_id","id");