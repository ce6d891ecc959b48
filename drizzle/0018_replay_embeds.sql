CREATE TABLE "replay_embeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"grant_id" text NOT NULL,
	"subject_user_id" integer NOT NULL,
	"origin" text NOT NULL,
	"session_ids" integer[] NOT NULL,
	"launch_token_hash" text NOT NULL,
	"launch_expires_at" timestamp with time zone NOT NULL,
	"launched_at" timestamp with time zone,
	"lease_hash" text,
	"lease_expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "replay_embeds_launch_token_hash_unique" UNIQUE("launch_token_hash"),
	CONSTRAINT "replay_embeds_lease_hash_unique" UNIQUE("lease_hash"),
	CONSTRAINT "replay_embeds_sessions_chk" CHECK (cardinality("replay_embeds"."session_ids") between 1 and 9),
	CONSTRAINT "replay_embeds_lease_chk" CHECK (("replay_embeds"."lease_hash" is null) = ("replay_embeds"."lease_expires_at" is null))
);
--> statement-breakpoint
CREATE TABLE "replay_artifact_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"embed_id" integer NOT NULL,
	"result_id" integer NOT NULL,
	"lane" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "replay_artifact_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "replay_embeds" ADD CONSTRAINT "replay_embeds_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_embeds" ADD CONSTRAINT "replay_embeds_grant_id_oauth_grants_grant_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("grant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_embeds" ADD CONSTRAINT "replay_embeds_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_artifact_tokens" ADD CONSTRAINT "replay_artifact_tokens_embed_id_replay_embeds_id_fk" FOREIGN KEY ("embed_id") REFERENCES "public"."replay_embeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_artifact_tokens" ADD CONSTRAINT "replay_artifact_tokens_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replay_embeds_grant_idx" ON "replay_embeds" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "replay_embeds_subject_idx" ON "replay_embeds" USING btree ("subject_user_id","application_id");--> statement-breakpoint
CREATE INDEX "replay_artifact_tokens_embed_idx" ON "replay_artifact_tokens" USING btree ("embed_id");