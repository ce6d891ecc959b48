CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"outcome" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "export_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"subject_user_id" integer NOT NULL,
	"application_id" integer,
	"source_kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"format" text NOT NULL,
	"athlete" smallint NOT NULL,
	"splits" smallint NOT NULL,
	"lang" text NOT NULL,
	"mode" text NOT NULL,
	"health_allowed" boolean NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" smallint,
	"error" text,
	"blob_key" text,
	"content_type" text,
	"filename" text,
	"byte_size" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "export_jobs_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "export_jobs_state_check" CHECK ("export_jobs"."state" in ('queued', 'running', 'succeeded', 'failed', 'expired')),
	CONSTRAINT "export_jobs_athlete_check" CHECK ("export_jobs"."athlete" between 1 and 4),
	CONSTRAINT "export_jobs_splits_check" CHECK ("export_jobs"."splits" between 1 and 20)
);
--> statement-breakpoint
CREATE TABLE "device_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_user_id" integer NOT NULL,
	"application_id" integer,
	"device_id" integer NOT NULL,
	"filename" text,
	"source_result_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"blob_key" text,
	"byte_size" bigint,
	"sha256" text,
	"deleted_files" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "device_jobs_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "device_jobs_kind_check" CHECK ("device_jobs"."kind" in ('fetch', 'delete')),
	CONSTRAINT "device_jobs_state_check" CHECK ("device_jobs"."state" in ('queued', 'running', 'succeeded', 'failed', 'consumed', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "event_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_jobs" ADD CONSTRAINT "device_jobs_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_jobs" ADD CONSTRAINT "device_jobs_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_jobs" ADD CONSTRAINT "device_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "export_jobs_subject_idx" ON "export_jobs" USING btree ("subject_user_id","created_at");--> statement-breakpoint
CREATE INDEX "export_jobs_expires_idx" ON "export_jobs" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "device_jobs_subject_idx" ON "device_jobs" USING btree ("subject_user_id","created_at");--> statement-breakpoint
CREATE INDEX "device_jobs_expires_idx" ON "device_jobs" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "event_outbox_pending_idx" ON "event_outbox" USING btree ("next_attempt_at") WHERE sent_at is null;