CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"can_read" boolean DEFAULT true NOT NULL,
	"can_create_sessions" boolean DEFAULT false NOT NULL,
	"can_delete_sessions" boolean DEFAULT false NOT NULL,
	"is_operator" boolean DEFAULT false NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role_id" integer NOT NULL,
	"session_version" integer DEFAULT 1 NOT NULL,
	"unlimited_externals" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "athletes" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"user_id" integer,
	"name" text NOT NULL,
	"surname" text DEFAULT '' NOT NULL,
	"date_of_birth" date,
	"modality" text DEFAULT '' NOT NULL,
	"weight_kg" real,
	"subscription_active_until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "athletes_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "team_memberships" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"role" text NOT NULL,
	"user_id" integer,
	"athlete_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_memberships_member_chk" CHECK (("team_memberships"."role" = 'coach' and "team_memberships"."user_id" is not null and "team_memberships"."athlete_id" is null) or ("team_memberships"."role" = 'athlete' and "team_memberships"."athlete_id" is not null and "team_memberships"."user_id" is null))
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_team_shares" (
	"track_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	CONSTRAINT "track_team_shares_track_id_team_id_pk" PRIMARY KEY("track_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"latitude" real,
	"longitude" real,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "paces" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "paces_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "vessels" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"npeople" integer NOT NULL,
	"hull" text NOT NULL,
	"supported" boolean DEFAULT true NOT NULL,
	CONSTRAINT "vessels_type_unique" UNIQUE("type")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"hardware_model" integer NOT NULL,
	"serial" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"firmware" text DEFAULT '' NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blobs_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "result_crew" (
	"result_id" integer NOT NULL,
	"seat" smallint NOT NULL,
	"athlete_id" integer,
	"external_name" varchar(128),
	"external_surname" text,
	"external_weight_kg" real,
	CONSTRAINT "result_crew_result_id_seat_pk" PRIMARY KEY("result_id","seat"),
	CONSTRAINT "result_crew_seat_chk" CHECK (("result_crew"."athlete_id" is not null and "result_crew"."external_name" is null) or ("result_crew"."athlete_id" is null and "result_crew"."external_name" is not null))
);
--> statement-breakpoint
CREATE TABLE "result_strokes" (
	"result_id" integer NOT NULL,
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
	CONSTRAINT "result_strokes_result_id_stroke_index_pk" PRIMARY KEY("result_id","stroke_index")
);
--> statement-breakpoint
CREATE TABLE "result_weather" (
	"result_id" integer PRIMARY KEY NOT NULL,
	"wind_speed_m_s" real,
	"wind_direction_deg" real,
	"air_temperature_c" real,
	"water_temperature_c" real
);
--> statement-breakpoint
CREATE TABLE "results" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"device_id" integer,
	"track_id" integer NOT NULL,
	"vessel_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"pace_id" integer NOT NULL,
	"created_via" text NOT NULL,
	"key_pair_id" integer,
	"date" date NOT NULL,
	"time_of_day" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"utc_offset_min" smallint NOT NULL,
	"distance_m" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"target_distance_m" integer,
	"target_duration_ms" integer,
	"competition" varchar(64) DEFAULT '' NOT NULL,
	"description" varchar(64) DEFAULT '' NOT NULL,
	"important" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'processed' NOT NULL,
	"software_version" text DEFAULT '' NOT NULL,
	"hardware" text DEFAULT '' NOT NULL,
	"hardware_model" integer,
	"original_blob_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "results_target_chk" CHECK (("results"."target_distance_m" is null) <> ("results"."target_duration_ms" is null))
);
--> statement-breakpoint
CREATE TABLE "app_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athletes" ADD CONSTRAINT "athletes_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athletes" ADD CONSTRAINT "athletes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_memberships" ADD CONSTRAINT "team_memberships_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_memberships" ADD CONSTRAINT "team_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_memberships" ADD CONSTRAINT "team_memberships_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_team_shares" ADD CONSTRAINT "track_team_shares_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_team_shares" ADD CONSTRAINT "track_team_shares_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_crew" ADD CONSTRAINT "result_crew_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_crew" ADD CONSTRAINT "result_crew_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_strokes" ADD CONSTRAINT "result_strokes_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_weather" ADD CONSTRAINT "result_weather_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_vessel_id_vessels_id_fk" FOREIGN KEY ("vessel_id") REFERENCES "public"."vessels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_pace_id_paces_id_fk" FOREIGN KEY ("pace_id") REFERENCES "public"."paces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_original_blob_id_blobs_id_fk" FOREIGN KEY ("original_blob_id") REFERENCES "public"."blobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "athletes_owner_idx" ON "athletes" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_memberships_coach_uq" ON "team_memberships" USING btree ("team_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_memberships_athlete_uq" ON "team_memberships" USING btree ("team_id","athlete_id");--> statement-breakpoint
CREATE INDEX "team_memberships_user_idx" ON "team_memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_memberships_athlete_idx" ON "team_memberships" USING btree ("athlete_id");--> statement-breakpoint
CREATE INDEX "track_team_shares_team_idx" ON "track_team_shares" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "tracks_owner_idx" ON "tracks" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_owner_serial_uq" ON "devices" USING btree ("owner_user_id","serial");--> statement-breakpoint
CREATE INDEX "devices_owner_idx" ON "devices" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE INDEX "result_crew_athlete_idx" ON "result_crew" USING btree ("athlete_id","result_id");--> statement-breakpoint
CREATE INDEX "results_owner_start_idx" ON "results" USING btree ("owner_user_id","start_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "results_owner_created_idx" ON "results" USING btree ("owner_user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "results_owner_distance_idx" ON "results" USING btree ("owner_user_id","distance_m","id");--> statement-breakpoint
CREATE INDEX "results_track_idx" ON "results" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "results_key_pair_idx" ON "results" USING btree ("key_pair_id");