CREATE TABLE "benchmark_releases" (
	"vessel_id" integer NOT NULL,
	"distance_m" integer NOT NULL,
	"people" integer NOT NULL,
	"percentiles" jsonb NOT NULL,
	"state_digest" text NOT NULL,
	"released_at" timestamp with time zone NOT NULL,
	CONSTRAINT "benchmark_releases_vessel_id_distance_m_pk" PRIMARY KEY("vessel_id","distance_m")
);
--> statement-breakpoint
ALTER TABLE "results" ADD COLUMN "svc_key_id" bigint;--> statement-breakpoint
ALTER TABLE "benchmark_releases" ADD CONSTRAINT "benchmark_releases_vessel_id_vessels_id_fk" FOREIGN KEY ("vessel_id") REFERENCES "public"."vessels"("id") ON DELETE no action ON UPDATE no action;