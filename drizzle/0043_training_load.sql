CREATE TABLE "athlete_loads" (
	"id" serial PRIMARY KEY NOT NULL,
	"athlete_id" integer NOT NULL,
	"result_id" integer,
	"training_id" integer,
	"vessel_id" integer NOT NULL,
	"date" date NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"duration_s" real NOT NULL,
	"zone_seconds" jsonb NOT NULL,
	"speed_load" real NOT NULL,
	"reference_speed_m_s" real,
	"best500_speed_m_s" real,
	"heart_rate_load" real,
	CONSTRAINT "athlete_loads_source_chk" CHECK (("athlete_loads"."result_id" is null) <> ("athlete_loads"."training_id" is null))
);
--> statement-breakpoint
CREATE TABLE "athlete_zones" (
	"athlete_id" integer PRIMARY KEY NOT NULL,
	"zones" jsonb NOT NULL,
	"max_heart_rate_bpm" smallint,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heart_rate_shares" (
	"athlete_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "athlete_loads" ADD CONSTRAINT "athlete_loads_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athlete_loads" ADD CONSTRAINT "athlete_loads_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athlete_loads" ADD CONSTRAINT "athlete_loads_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athlete_loads" ADD CONSTRAINT "athlete_loads_vessel_id_vessels_id_fk" FOREIGN KEY ("vessel_id") REFERENCES "public"."vessels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athlete_zones" ADD CONSTRAINT "athlete_zones_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athlete_zones" ADD CONSTRAINT "athlete_zones_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_rate_shares" ADD CONSTRAINT "heart_rate_shares_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_rate_shares" ADD CONSTRAINT "heart_rate_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "athlete_loads_result_uq" ON "athlete_loads" USING btree ("result_id","athlete_id");--> statement-breakpoint
CREATE UNIQUE INDEX "athlete_loads_training_uq" ON "athlete_loads" USING btree ("training_id","athlete_id");--> statement-breakpoint
CREATE INDEX "athlete_loads_athlete_date_idx" ON "athlete_loads" USING btree ("athlete_id","date");--> statement-breakpoint
CREATE INDEX "athlete_loads_reference_idx" ON "athlete_loads" USING btree ("athlete_id","vessel_id","start_at");