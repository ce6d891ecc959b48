CREATE TABLE "planned_workout_athletes" (
	"plan_id" integer NOT NULL,
	"athlete_id" integer NOT NULL,
	"seat" smallint,
	CONSTRAINT "planned_workout_athletes_plan_id_athlete_id_pk" PRIMARY KEY("plan_id","athlete_id")
);
--> statement-breakpoint
CREATE TABLE "planned_workouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_by_user_id" integer,
	"date" date NOT NULL,
	"title" varchar(128) NOT NULL,
	"audience" text NOT NULL,
	"team_id" integer,
	"boat_class" text,
	"template_id" integer,
	"document" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_plan_links" (
	"training_id" integer PRIMARY KEY NOT NULL,
	"plan_id" integer,
	"linked_by_user_id" integer,
	"comparison" jsonb,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "planned_workout_athletes" ADD CONSTRAINT "planned_workout_athletes_plan_id_planned_workouts_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."planned_workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_workout_athletes" ADD CONSTRAINT "planned_workout_athletes_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_workouts" ADD CONSTRAINT "planned_workouts_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_workouts" ADD CONSTRAINT "planned_workouts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_workouts" ADD CONSTRAINT "planned_workouts_template_id_workout_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."workout_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_links" ADD CONSTRAINT "training_plan_links_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_links" ADD CONSTRAINT "training_plan_links_plan_id_planned_workouts_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."planned_workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_links" ADD CONSTRAINT "training_plan_links_linked_by_user_id_users_id_fk" FOREIGN KEY ("linked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "planned_workout_athletes_athlete_idx" ON "planned_workout_athletes" USING btree ("athlete_id","plan_id");--> statement-breakpoint
CREATE INDEX "planned_workouts_date_idx" ON "planned_workouts" USING btree ("date","id");--> statement-breakpoint
CREATE INDEX "planned_workouts_team_idx" ON "planned_workouts" USING btree ("team_id","date");--> statement-breakpoint
CREATE INDEX "training_plan_links_plan_idx" ON "training_plan_links" USING btree ("plan_id");