CREATE TABLE "training_crew" (
	"training_id" integer NOT NULL,
	"seat" smallint NOT NULL,
	"athlete_id" integer NOT NULL,
	CONSTRAINT "training_crew_training_id_seat_pk" PRIMARY KEY("training_id","seat")
);
--> statement-breakpoint
ALTER TABLE "training_crew" ADD CONSTRAINT "training_crew_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_crew" ADD CONSTRAINT "training_crew_athlete_id_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "training_crew_athlete_uq" ON "training_crew" USING btree ("training_id","athlete_id");--> statement-breakpoint
CREATE INDEX "training_crew_athlete_idx" ON "training_crew" USING btree ("athlete_id","training_id");--> statement-breakpoint
-- Trainings uploaded before crews: their named paddler is seat 1.
INSERT INTO "training_crew" ("training_id", "seat", "athlete_id") SELECT "id", 1, "athlete_id" FROM "trainings" WHERE "athlete_id" IS NOT NULL;
