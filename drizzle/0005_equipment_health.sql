CREATE TABLE "equipment_paddles" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"length_cm" real,
	"blade_area_cm2" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipment_vessels" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"vessel_type_id" integer NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"weight_kg" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_lactate" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"result_id" integer,
	"training_id" integer,
	"measured_at" timestamp with time zone NOT NULL,
	"lactate_mmol_l" real NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"provenance" text NOT NULL,
	"external_source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_weights" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"measured_on" date NOT NULL,
	"weight_kg" real NOT NULL,
	"provenance" text NOT NULL,
	"external_source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "equipment_paddles" ADD CONSTRAINT "equipment_paddles_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_vessels" ADD CONSTRAINT "equipment_vessels_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_vessels" ADD CONSTRAINT "equipment_vessels_vessel_type_id_vessels_id_fk" FOREIGN KEY ("vessel_type_id") REFERENCES "public"."vessels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_lactate" ADD CONSTRAINT "health_lactate_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_lactate" ADD CONSTRAINT "health_lactate_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_weights" ADD CONSTRAINT "health_weights_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "equipment_paddles_owner_idx" ON "equipment_paddles" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE INDEX "equipment_vessels_owner_idx" ON "equipment_vessels" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE INDEX "health_lactate_user_idx" ON "health_lactate" USING btree ("user_id","measured_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "health_lactate_result_idx" ON "health_lactate" USING btree ("result_id");--> statement-breakpoint
CREATE INDEX "health_weights_user_idx" ON "health_weights" USING btree ("user_id","measured_on" DESC NULLS LAST,"id" DESC NULLS LAST);