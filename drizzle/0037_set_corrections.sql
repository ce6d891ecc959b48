CREATE TABLE "training_set_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"user_id" integer,
	"operation" jsonb NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by_user_id" integer
);
--> statement-breakpoint
ALTER TABLE "training_derived" ADD COLUMN "detected_sets" jsonb;--> statement-breakpoint
ALTER TABLE "training_derived" ADD COLUMN "stroke_catches" jsonb;--> statement-breakpoint
ALTER TABLE "training_sets" ADD COLUMN "corrected" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trainings" ADD COLUMN "needs_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "training_set_corrections" ADD CONSTRAINT "training_set_corrections_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_set_corrections" ADD CONSTRAINT "training_set_corrections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_set_corrections" ADD CONSTRAINT "training_set_corrections_undone_by_user_id_users_id_fk" FOREIGN KEY ("undone_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "training_set_corrections_training_idx" ON "training_set_corrections" USING btree ("training_id","id");