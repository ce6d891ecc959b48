CREATE TABLE "webhook_listen_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"application_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_start" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "webhook_listen_tokens_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "webhook_listen_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "tx_id" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_listen_tokens" ADD CONSTRAINT "webhook_listen_tokens_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_listen_tokens_application_idx" ON "webhook_listen_tokens" USING btree ("application_id","id");--> statement-breakpoint
CREATE INDEX "webhook_events_application_tx_idx" ON "webhook_events" USING btree ("application_id","tx_id","id");