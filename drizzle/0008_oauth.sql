CREATE TABLE "oauth_application_origins" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"origin" text NOT NULL,
	"status" text NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"surface" text NOT NULL,
	"client_type" text NOT NULL,
	"client_secret_hash" text,
	"client_secret_start" text,
	"client_secret_created_at" timestamp with time zone,
	"redirect_uris" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"review_status" text NOT NULL,
	"review_note" text,
	"reviewed_at" timestamp with time zone,
	"reviewed_by_user_id" integer,
	"introspection_allowed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_applications_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "oauth_applications_secret_chk" CHECK (("oauth_applications"."client_type" = 'confidential' and "oauth_applications"."client_secret_hash" is not null) or ("oauth_applications"."client_type" = 'public' and "oauth_applications"."client_secret_hash" is null))
);
--> statement-breakpoint
CREATE TABLE "oauth_grants" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"scopes" text[] NOT NULL,
	"declined_scopes" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_models" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"user_code" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_models_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
ALTER TABLE "oauth_application_origins" ADD CONSTRAINT "oauth_application_origins_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_applications" ADD CONSTRAINT "oauth_applications_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_applications" ADD CONSTRAINT "oauth_applications_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_application_origins_uq" ON "oauth_application_origins" USING btree ("application_id","origin");--> statement-breakpoint
CREATE INDEX "oauth_applications_owner_idx" ON "oauth_applications" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE INDEX "oauth_applications_review_idx" ON "oauth_applications" USING btree ("review_status");--> statement-breakpoint
CREATE INDEX "oauth_grants_user_idx" ON "oauth_grants" USING btree ("user_id","application_id");--> statement-breakpoint
CREATE INDEX "oauth_grants_application_idx" ON "oauth_grants" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "oauth_models_grant_idx" ON "oauth_models" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_models_uid_idx" ON "oauth_models" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_models_user_code_idx" ON "oauth_models" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "oauth_models_expires_idx" ON "oauth_models" USING btree ("expires_at");